"""Errors of the OLAP export; each message says what to do about it."""

from __future__ import annotations


class OlapError(RuntimeError):
    """Base of every OLAP export error."""


class ExportError(OlapError):
    """DynamoDB refused or failed an export (e.g. point-in-time recovery is off)."""


class PlanError(OlapError):
    """The export asked for cannot be made now (e.g. an incremental export with nothing to follow)."""


class CatalogError(OlapError):
    """The Glue table of an export could not be read or pointed at the new data."""


class SettingsError(OlapError):
    """The function's environment (or the stack's outputs) do not describe the export."""
