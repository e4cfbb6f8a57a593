"""Campaign targeting (seed 004's selective indexes): user profiles with one KEYS_ONLY GSI per
condition (prefecture, birth month, last order month), intersected to find the users meeting all."""
