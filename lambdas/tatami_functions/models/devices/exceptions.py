"""Errors of the device-logs model; SDK errors become these at the repository boundary."""

from __future__ import annotations


class DeviceLogsError(Exception):
    """Base class of the model's errors."""


class LogNotFoundError(DeviceLogsError):
    """No log has this device, level and created_at."""


class LogConflictError(DeviceLogsError):
    """Another log with the same device, level and created_at (to the millisecond) already exists."""


class DeviceLogsUnavailableError(DeviceLogsError):
    """DynamoDB or S3 refused a call (throttled, missing table, no permission)."""
