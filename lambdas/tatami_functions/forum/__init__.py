"""Seed 001's forum: Forum, Thread and Reply tables with composite keys, behind `GET /forums/...`."""
