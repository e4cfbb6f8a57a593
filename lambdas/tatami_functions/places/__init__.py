"""Places behind `/places` (seed 000's GeoNames-style places): Z-order search over latitude, longitude
and population, the indexes kept up to date by the engine's stream maintainer (seed 004's Streams
pattern)."""
