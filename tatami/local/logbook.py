"""The local cloud's log: every line of every part, echoed to the terminal and kept for tests."""

from __future__ import annotations

import collections
import sys
import threading
from dataclasses import dataclass, field


@dataclass
class LogBook:
    """Lines prefixed by their source (a function, `api`, `ttl`, ...), bounded in memory."""

    echo: bool = True
    lines: collections.deque[str] = field(default_factory=lambda: collections.deque(maxlen=20_000))
    _lock: threading.Lock = field(default_factory=threading.Lock)

    def write(self, source: str, line: str) -> None:
        entry = f"{source:>24} | {line}"
        with self._lock:
            self.lines.append(entry)
            if self.echo:
                print(entry, file=sys.stdout, flush=True)

    def snapshot(self) -> list[str]:
        """The lines so far, copied under the lock: iterating `lines` while a reader thread appends
        would raise "deque mutated during iteration"."""
        with self._lock:
            return list(self.lines)

    def function(self, name: str, line: str) -> None:
        """A function's own output, prefixed by its logical id (its local name without the stack)."""
        self.write(name.split("-", 1)[-1][:24], line)
