"""Pick-up lockers (seed 004): hierarchical drill-down with `begins_with` on a composite sort key."""
