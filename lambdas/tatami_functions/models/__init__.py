"""The seeds' data models (seeds 001, 002, 004): one subpackage and one API function per model."""
