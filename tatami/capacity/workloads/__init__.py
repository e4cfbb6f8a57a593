"""What is sent to the model, and how: the clients (bulk loaders; callers that are functions'
environments, each with its own SDK client, at set rates or recorded times) and the workloads built
from keys, counters, reads and mixes, with what each asks without its retries (`demand`).
"""
