"""Waiting for what an asynchronous system does (stream deliveries, roll-ups, retries), not blindly."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any


def eventually(check: Callable[[], Any], timeout: float = 30.0) -> Any:
    """`check()` every 0.1 s until it returns something truthy or `timeout` seconds have passed;
    its last result (falsy on a timeout, so `assert eventually(...)` fails with what was seen).

    >>> eventually(lambda: 42)
    42
    """
    deadline = time.monotonic() + timeout
    while True:
        result = check()
        if result or time.monotonic() > deadline:
            return result
        time.sleep(0.1)
