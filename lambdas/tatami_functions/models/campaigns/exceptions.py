"""Errors of the campaigns model; SDK errors become these at the repository boundary."""

from __future__ import annotations


class CampaignsError(Exception):
    """Base class of the model's errors."""


class ProfileNotFoundError(CampaignsError):
    """No campaign profile for this user."""


class CampaignsUnavailableError(CampaignsError):
    """DynamoDB refused a call (throttled, missing table, no permission)."""
