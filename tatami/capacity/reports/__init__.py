"""What a run says: the report of a simulation, its verdict, CloudWatch's view of it, and the text,
CSV and PNG renderings.
"""
