"""The errors a service raises, and the one answer each kind gets (`common.api.create_resolver`).

A service's `exceptions.py` derives its errors from these, so no route or service writes an
exception handler: `ItemNotFoundError` is a 404, `ConflictError` a 409, `DependencyError`
(`common.dependencies`: an AWS call failed) a 503 with `Retry-After`. The error's text is the
answer's `message`; a text "<field>: <reason>" also lists the field in `errors`, as a 400 does.
The roots are named apart from Powertools' own `ServiceError` and `NotFoundError`
(`aws_lambda_powertools.event_handler.exceptions`), so the import line never decides which one a
reader meets.

>>> class LockerNotFoundError(ItemNotFoundError):
...     '''No locker has this id.'''
>>> LockerNotFoundError("no locker L-1").status
<HTTPStatus.NOT_FOUND: 404>
"""

from __future__ import annotations

from http import HTTPStatus
from typing import ClassVar

from tatami_functions.common.dependencies import DependencyError

__all__ = ["ConflictError", "DependencyError", "ItemNotFoundError", "TatamiError"]


class TatamiError(Exception):
    """An error a route answers with `status` and the error's text (and `Retry-After` when the error
    says when to try again)."""

    status: ClassVar[HTTPStatus]
    retry_after: ClassVar[int | None] = None


class ItemNotFoundError(TatamiError):
    """What the request names does not exist."""

    status = HTTPStatus.NOT_FOUND


class ConflictError(TatamiError):
    """The request conflicts with what is stored (changed meanwhile, taken, or cannot shrink)."""

    status = HTTPStatus.CONFLICT
