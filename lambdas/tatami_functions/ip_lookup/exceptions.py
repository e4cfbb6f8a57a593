"""Errors of the IP lookup service; SDK errors are translated to these at the repository boundary."""

from __future__ import annotations


class IpLookupError(Exception):
    """Base class of the service's errors."""


class InvalidAddressError(IpLookupError, ValueError):
    """The text is not an IPv4 or IPv6 address (the message says why)."""


class RangesUnavailableError(IpLookupError):
    """DynamoDB refused a read of the ranges table (throttled, missing table, no permission)."""
