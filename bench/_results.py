"""What every bench ends with: its figures written as JSON under bench/results/, and where they went.

>>> machine()  # doctest: +ELLIPSIS
'..., ... CPUs, Python 3...'
"""

from __future__ import annotations

import json
import os
import platform
from collections.abc import Callable
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]


def write_results(
    path: Path, document: Any, indent: int = 2, default: Callable[[Any], Any] | None = None
) -> None:
    """Write `document` to `path` (a file under bench/results/) as JSON, and print where; `default`
    is `json.dumps`' (how to write what JSON has no type for)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(document, indent=indent, default=default) + "\n", encoding="utf-8")
    print(f"wrote {path.relative_to(REPO) if path.is_relative_to(REPO) else path}")


def machine() -> str:
    """The machine the figures were measured on, as the results record it."""
    return f"{platform.machine()}, {os.cpu_count()} CPUs, Python {platform.python_version()}"
