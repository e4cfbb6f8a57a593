"""Places: Z-order search over latitude, longitude and population (seed 000), kept up to date by a
stream maintainer (seed 004's Streams pattern)."""
