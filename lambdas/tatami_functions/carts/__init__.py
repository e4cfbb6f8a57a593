"""Carts (seed 004's vertical partitioning): a cart split into one row per value under the user, with
a hierarchical sort key (`cart_items#price#<item>`) and one overloaded GSI answering "who has item X"
and "who ships to prefecture Y"."""
