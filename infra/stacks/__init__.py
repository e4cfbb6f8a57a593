"""Stacks compose the constructs."""
