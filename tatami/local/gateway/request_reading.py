"""Reading HTTP requests as a front door must: within a deadline, and never trusting Content-Length.

Without deadlines a client holds a server thread for as long as it likes: headers sent a byte a
second (slowloris), a body shorter than its Content-Length, a connection opened and left. So each
request must arrive whole within `read_timeout` of its first byte (the server answers 408), and a
connection idle between requests is closed after `idle_timeout`. Content-Length is checked before
anything is allocated: one value, ASCII digits only; the server refuses a body over its limit at
once (413), then reads and discards it only when it is small enough to drain within the deadline.
A chunked body (`Transfer-Encoding: chunked`, what a client sends when it does not know the length
up front) is read chunk by chunk under the same limit, so the connection stays in step with the
client; a request with both headers, or another transfer coding, is refused (400), since two ways
to find a body's end are how requests are smuggled past proxies.
"""

from __future__ import annotations

import io
import socket
import time
from email.message import Message

__all__ = [
    "BodyTooLargeError",
    "DeadlineReader",
    "MalformedRequestError",
    "RequestTimeoutError",
    "declared_length",
    "drain",
    "read_body",
]

DRAIN_LIMIT_BYTES = 64 * 1024 * 1024  # a body past this is not read at all: the connection closes
LINE_LIMIT_BYTES = 4096  # a chunk's size line or a trailer field
MAX_TRAILER_FIELDS = 64
_HEX_DIGITS = frozenset(b"0123456789abcdefABCDEF")


class RequestTimeoutError(TimeoutError):
    """The request did not arrive within its deadline (http.server treats TimeoutError as such)."""


class MalformedRequestError(ValueError):
    """The request cannot be read as HTTP says: a 400 naming `field` (a header)."""

    def __init__(self, field: str, reason: str) -> None:
        super().__init__(f"{field}: {reason}")
        self.field, self.reason = field, reason


class BodyTooLargeError(ValueError):
    """The body is past the server's limit (a 413); `declared` is its Content-Length, if it has one."""

    def __init__(self, declared: int | None) -> None:
        super().__init__(f"a body of {declared or 'more'} bytes is past the limit")
        self.declared = declared


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
    tatami.local.gateway.request_reading.MalformedRequestError: Content-Length: is not one number of bytes
    """
    values = {value.strip() for value in headers.get_all("content-length") or []}
    if not values:
        return 0
    (value, *others) = values
    if others or not (value.isascii() and value.isdigit()):
        raise MalformedRequestError("Content-Length", "is not one number of bytes")
    return int(value)


def read_body(stream: io.BufferedIOBase, headers: Message, limit: int) -> bytes | None:
    """The body as the client sent it: Content-Length bytes, or a chunked body's chunks joined; None
    when the client hung up before its end. MalformedRequestError (a 400) for what cannot be read
    as HTTP says, BodyTooLargeError past `limit` bytes (checked before anything is allocated)."""
    codings = [c.strip().lower() for v in headers.get_all("transfer-encoding") or [] for c in v.split(",")]
    if not codings:
        length = declared_length(headers)
        if length > limit:
            raise BodyTooLargeError(length)
        body = stream.read(length)
        return body if len(body) == length else None
    if headers.get_all("content-length"):
        raise MalformedRequestError("Transfer-Encoding", "a request with Content-Length too is refused")
    if codings != ["chunked"]:
        raise MalformedRequestError("Transfer-Encoding", f"{', '.join(codings)} is not supported: chunked is")
    return _chunks(stream, limit)


def _chunks(stream: io.BufferedIOBase, limit: int) -> bytes | None:
    """A chunked body's data (RFC 9112 7.1): chunks until the empty one, then trailer fields, ignored."""
    body = bytearray()
    while size := _chunk_size(stream.readline(LINE_LIMIT_BYTES + 1)):
        if size < 0:
            return None
        if len(body) + size > limit:
            raise BodyTooLargeError(None)
        chunk = stream.read(size)
        if len(chunk) < size:
            return None
        body += chunk
        if stream.read(2) != b"\r\n":
            raise MalformedRequestError("Transfer-Encoding", "a chunk is longer than its size says")
    for _ in range(MAX_TRAILER_FIELDS):
        line = stream.readline(LINE_LIMIT_BYTES + 1)
        if not line.endswith(b"\n"):
            _refuse_if_too_long(line, "a trailer field")
            return None  # the client hung up
        if line in (b"\r\n", b"\n"):
            return bytes(body)
    raise MalformedRequestError("Transfer-Encoding", f"more than {MAX_TRAILER_FIELDS} trailer fields")


def _chunk_size(line: bytes) -> int:
    r"""The size a chunk's first line declares (extensions after `;` ignored); -1: the client hung up.

    >>> _chunk_size(b"1A;name=value\r\n"), _chunk_size(b"0\r\n"), _chunk_size(b"")
    (26, 0, -1)
    >>> try:
    ...     _chunk_size(b"0x10\r\n")
    ... except MalformedRequestError as exc:
    ...     print(exc)
    Transfer-Encoding: chunk size 0x10 is not hexadecimal
    """
    if not line.endswith(b"\n"):
        _refuse_if_too_long(line, "a chunk size line")
        return -1
    digits = line.split(b";", 1)[0].strip(b" \t\r\n")
    if not digits or len(digits) > 16 or not _HEX_DIGITS.issuperset(digits):
        shown = digits[:20].decode("ascii", "replace")
        raise MalformedRequestError("Transfer-Encoding", f"chunk size {shown} is not hexadecimal")
    return int(digits, 16)


def _refuse_if_too_long(line: bytes, what: str) -> None:
    """A line without its end was cut short by the client hanging up, or is too long (a 400)."""
    if len(line) > LINE_LIMIT_BYTES:
        raise MalformedRequestError("Transfer-Encoding", f"{what} is longer than {LINE_LIMIT_BYTES} bytes")


def drain(stream: io.BufferedIOBase, length: int) -> bool:
    """Read and discard (within the request's deadline) a body the server refused, so the client reads
    the answer instead of a reset; False (nothing read) when it is too large to drain."""
    if length > DRAIN_LIMIT_BYTES:
        return False
    remaining = length
    try:
        while remaining > 0:
            chunk = stream.read(min(remaining, 1 << 20))
            if not chunk:
                break
            remaining -= len(chunk)
    except (RequestTimeoutError, ConnectionError):
        pass  # the answer is sent; the connection closes all the same
    return True
