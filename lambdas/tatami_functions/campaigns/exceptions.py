"""Errors of the campaigns service; SDK errors become these at the repository boundary."""

from __future__ import annotations

from tatami_functions.common.dependencies import DependencyError
from tatami_functions.common.errors import ItemNotFoundError


class CampaignsError(Exception):
    """Base class of the service's errors."""


class ProfileNotFoundError(CampaignsError, ItemNotFoundError):
    """No campaign profile for this user."""


class CampaignsUnavailableError(CampaignsError, DependencyError):
    """DynamoDB failed a call (throttled, unreachable, too slow or refusing): the API answers 503."""
