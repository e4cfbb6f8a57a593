"""Reusable constructs: one per pattern; the stack composes them."""
