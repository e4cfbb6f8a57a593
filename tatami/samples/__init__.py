"""Each service's sample data for the local cloud (registered in tatami/local/samples.py)."""
