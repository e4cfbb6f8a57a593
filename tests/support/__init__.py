"""Helpers shared by test modules (conftest files cannot be imported under --import-mode=importlib)."""
