"""The checkout of tatami, for the commands that only work in one: `tatami local`, `tatami doctor`, `--local`.

The CDK app (`infra`) is not in the wheel: it builds its assets from the checkout's folders, and
`make install` puts the checkout on the virtual environment's path. So the checkout's root is
`infra.paths.REPO_ROOT`, imported when such a command runs, never when the CLI starts: `tatami --help`
and the commands that act on a deployed stack work from the wheel alone.
"""

from __future__ import annotations

from pathlib import Path

import click


class NotACheckout(click.ClickException):
    """`infra` is not importable: this `tatami` was installed from its wheel, not run from a checkout."""


def repo_root() -> Path:
    """The checkout's root folder (where `app.py`, `cdk.out`, `node_modules` and `.local` live)."""
    try:
        from infra.paths import REPO_ROOT
    except ModuleNotFoundError as exc:
        if (exc.name or "").partition(".")[0] != "infra":
            raise
        raise NotACheckout(
            "this needs the CDK app (`infra`), which is not installed with tatami: run this from a "
            "checkout of tatami (after `make install` there)"
        ) from None
    return REPO_ROOT
