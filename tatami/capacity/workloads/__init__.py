"""What is sent to the model, and how: the clients (bulk loaders, steady arrivals, recorded calls)
and the workloads built from keys, counters and reads.
"""
