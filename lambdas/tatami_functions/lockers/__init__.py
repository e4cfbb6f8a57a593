"""Pick-up lockers (seed 004's hierarchical data): a prefecture's lockers drilled down by area with
`begins_with` on a composite sort key ("千代田区#紀尾井町#<id>"), and each locker findable by id."""
