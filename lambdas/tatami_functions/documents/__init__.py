"""Documents (seed 004's large items): bodies kept out of the list path (gzip inline when small, S3
objects when not), and a user's list served by an INCLUDE-projected GSI that never holds a body."""
