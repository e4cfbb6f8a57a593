"""IAM enforced on the local cloud, from the synthesized template's policies (see guard.py)."""
