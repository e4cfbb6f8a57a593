"""A Lambda-like sandbox for local workers: the runtime's packages, the public layers, the import path."""
