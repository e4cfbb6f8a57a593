"""Seed 001's forum behind `GET /forums/...` (read-only): Forum, Thread and Reply tables with composite
keys, a forum's threads and a thread's replies one Query each."""
