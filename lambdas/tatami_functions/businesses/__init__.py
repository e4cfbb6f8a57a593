"""Seed 002's Business listings: one GSI (BusinessType + `Country:State:City`) drills down by location."""
