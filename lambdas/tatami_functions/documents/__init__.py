"""Documents (seed 004): large bodies kept out of the list path, which an INCLUDE-projected GSI serves."""
