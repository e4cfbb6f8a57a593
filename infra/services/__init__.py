"""One module per service: its tables, functions and routes."""
