"""Business listings behind `/businesses` (seed 002's Business table): one sparse GSI (BusinessType +
`Country:State:City`) drills down by location."""
