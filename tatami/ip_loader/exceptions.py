"""Errors of `tatami load-ip`; each message says what to do next."""

from __future__ import annotations

from collections.abc import Sequence


class LoadError(Exception):
    """Base class: the load did not go live (the previous dataset still serves)."""


class InvalidSourceError(LoadError):
    """The CSV has bad rows; nothing was written. `problems` lists them with file and line."""

    def __init__(self, problems: Sequence[str], more: int = 0) -> None:
        self.problems = list(problems)
        self.more = more
        tail = f"\n  ... and {more} more" if more else ""
        listed = "\n  ".join(self.problems)
        super().__init__(f"{len(self.problems) + more} problem(s), nothing was written:\n  {listed}{tail}")


class StoreError(LoadError):
    """DynamoDB refused a request the loader needs (missing table, permissions, endless throttling)."""


class InterruptedLoadError(LoadError):
    """The write phase stopped part-way; rerunning the same command resumes it."""


class VerificationError(LoadError):
    """Items counted after the write do not match the plan; the alias was not switched."""


class SupersededError(LoadError):
    """A newer dataset version went live while this load ran; this one was not switched in."""
