"""Errors of the device-logs model; SDK errors become these at the repository boundary."""

from __future__ import annotations

from tatami_functions.common.dependencies import DependencyError
from tatami_functions.common.errors import ConflictError, ItemNotFoundError


class DeviceLogsError(Exception):
    """Base class of the model's errors."""


class LogNotFoundError(DeviceLogsError, ItemNotFoundError):
    """No log has this device, level and created_at."""


class LogConflictError(DeviceLogsError, ConflictError):
    """Another log with the same device, level and created_at (to the millisecond) already exists."""


class DeviceLogsUnavailableError(DeviceLogsError, DependencyError):
    """DynamoDB or S3 failed a call (throttled, unreachable, too slow or refusing): the API answers 503."""
