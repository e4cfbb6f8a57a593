"""Campaign targeting (seed 004): one selective GSI per condition, intersected to find user ids."""
