"""Carts (seed 004): vertical partitioning with a hierarchical sort key and an overloaded GSI."""
