"""A busy machine: one spinning process per core beside the code under test, for load tests that must
hold while the CPU is saturated (a loaded machine is when answers are late and resends happen).

Each burner stops by itself at its deadline, and is killed when the block ends.
"""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager

_SPIN = "import time\ndeadline = time.monotonic() + {seconds}\nwhile time.monotonic() < deadline:\n    pass\n"


@contextmanager
def busy(seconds: float, cores: int | None = None) -> Iterator[int]:
    """Inside the block, `cores` (default: every core) processes spin for at most `seconds`; yields
    how many."""
    count = cores or os.cpu_count() or 1
    burners = [subprocess.Popen([sys.executable, "-c", _SPIN.format(seconds=seconds)]) for _ in range(count)]
    try:
        yield count
    finally:
        for burner in burners:
            burner.kill()
            burner.wait()
