"""Seed 004's hands-on labs the other services do not cover: the adjacency list (invoices and bills),
the employees table (overloaded, sparse and composite-key GSIs) and stream replication (logfile)."""
