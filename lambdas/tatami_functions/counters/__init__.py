"""Write-sharded counters (seed 004's votes example): sharded increments, summed reads, a stream roll-up."""
