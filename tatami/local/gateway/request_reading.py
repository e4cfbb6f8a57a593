"""Reading HTTP requests as a front door must: within a deadline, and never trusting Content-Length.

Without deadlines a client holds a server thread for as long as it likes: headers sent a byte a
second (slowloris), a body shorter than its Content-Length, a connection opened and left. So each
request must arrive whole within `read_timeout` of its first byte (the server answers 408), and a
connection idle between requests is closed after `idle_timeout`. Content-Length is checked before
anything is allocated: one value, ASCII digits only; the server refuses a body over its limit at
once (413), reading and discarding it only when it is small enough to drain within the deadline.
"""

from __future__ import annotations

import io
import socket
import time
from email.message import Message

__all__ = ["DeadlineReader", "RequestTimeoutError", "declared_length", "drain"]

DRAIN_LIMIT_BYTES = 64 * 1024 * 1024  # a body past this is not read at all: the connection closes


class RequestTimeoutError(TimeoutError):
    """The request did not arrive within its deadline (http.server treats TimeoutError as such)."""


class DeadlineReader(io.RawIOBase):
    """A socket's reading side under a deadline: `idle_timeout` until a request's first byte, then
    `read_timeout` for the whole request. `begin()` starts the clock for the next request."""

    def __init__(self, sock: socket.socket, read_timeout: float, idle_timeout: float) -> None:
        super().__init__()
        self.sock, self.read_timeout, self.idle_timeout = sock, read_timeout, idle_timeout
        self.started = self.expired = False
        self.deadline = time.monotonic() + idle_timeout

    def begin(self) -> None:
        self.started = self.expired = False
        self.deadline = time.monotonic() + self.idle_timeout

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: bytearray | memoryview) -> int:  # type: ignore[override]
        remaining = self.deadline - time.monotonic()
        try:
            if remaining <= 0:
                raise TimeoutError
            self.sock.settimeout(remaining)
            count = self.sock.recv_into(buffer)
        except TimeoutError:
            self.expired = True
            what = "request" if self.started else "idle connection"
            raise RequestTimeoutError(f"{what} past its deadline") from None
        if count and not self.started:
            self.started = True
            self.deadline = time.monotonic() + self.read_timeout
        return count


def declared_length(headers: Message) -> int:
    """The body's length as Content-Length declares it (0 without one); ValueError unless it is one
    number of ASCII digits (two different lengths are how requests are smuggled past proxies).

    >>> from email.message import Message
    >>> message = Message(); message["Content-Length"] = "99999999999999999999"
    >>> declared_length(message)
    99999999999999999999
    >>> message["Content-Length"] = "5"
    >>> declared_length(message)
    Traceback (most recent call last):
    ...
    ValueError: Content-Length is not one number of bytes
    """
    values = {value.strip() for value in headers.get_all("content-length") or []}
    if not values:
        return 0
    (value, *others) = values
    if others or not (value.isascii() and value.isdigit()):
        raise ValueError("Content-Length is not one number of bytes")
    return int(value)


def drain(stream: io.BufferedIOBase, length: int) -> bool:
    """Read and discard a body the server refuses, so the client reads the answer instead of a
    reset; False (nothing read) when it is too large to drain."""
    if length > DRAIN_LIMIT_BYTES:
        return False
    remaining = length
    while remaining > 0:
        chunk = stream.read(min(remaining, 1 << 20))
        if not chunk:
            break
        remaining -= len(chunk)
    return True
