"""Errors of the replicator; SDK errors become these at the repository boundary."""

from __future__ import annotations


class ReplicationError(Exception):
    """Base class of the replicator's errors."""


class ReplicaUnavailableError(ReplicationError):
    """The replica refused a call for now (throttled, timed out, unavailable): retry the record."""


class UnreplicableRecordError(ReplicationError):
    """A record the replica can never store as it is (e.g. the item plus its version exceeds 400 KB)."""
