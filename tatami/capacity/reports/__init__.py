"""What a run says: the report of a simulation, its verdict (causes, fixes with their numbers and
costs, what the application saw), what the workload costs, CloudWatch's view of it, and the text,
CSV and PNG renderings.
"""
