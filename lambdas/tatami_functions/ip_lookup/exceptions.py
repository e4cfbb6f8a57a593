"""Errors of the IP lookup service; SDK errors are translated to these at the repository boundary."""

from __future__ import annotations

from tatami_functions.common.dependencies import DependencyError


class IpLookupError(Exception):
    """Base class of the service's errors."""


class InvalidAddressError(IpLookupError, ValueError):
    """The text is not an IPv4 or IPv6 address (the message says why)."""


class RangesUnavailableError(IpLookupError, DependencyError):
    """DynamoDB failed a call (throttled, unreachable, too slow or refusing): the API answers 503."""
