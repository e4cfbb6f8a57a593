"""moto server whose S3 objects, SQS messages and Secrets Manager secrets are kept in a file, so what
`tatami local --db-path` keeps survives a restart beside DynamoDB Local's tables.

moto keeps everything in its process's memory. Run with a state file (`python -m
tatami.local.engines.moto_server --state FILE ...`), it first puts back what FILE holds (an SQLite
database), then serves as `moto.server` does, writing through: after every request that may change
something (any method but GET and HEAD) and before a byte of its answer leaves, the objects,
messages and secrets that changed are written to FILE in one SQLite transaction. So an acknowledged
write is in the file, and a kill of this process (or of the whole cloud) loses nothing acknowledged.

Kept: every bucket's objects (body, content type, user metadata; the newest version only), every
queue's messages (body, attributes, send time, receive count; a message received but not deleted
comes back visible, as after its visibility timeout), every secret's current value. Not kept: what
the template creates anew at each start (buckets, queues and their settings, the Glue catalog, which
the next export points at its files again), object versions, tags and ACLs, multipart uploads in
progress.

Chosen over moto's own recorder, which replays every request (reads included) and cannot replay an
SQS DeleteMessage (its receipt handle is new each time, so deleted messages would come back), and
over pickling moto's backends (S3 objects hold locks and temporary files, which do not pickle).
"""

from __future__ import annotations

import json
import pickle
import sqlite3
import threading
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from typing import Any

__all__ = ["MotoState", "WritingThrough"]

_READS = ("GET", "HEAD", "OPTIONS")
Where = tuple[str, ...]  # the key columns of a row
Found = tuple[Where, object, Callable[[], tuple[Any, ...]]]  # where, fingerprint, the row's other values


@dataclass(frozen=True)
class _Kind:
    """One kind of thing kept: its table (key columns first) and where moto holds them now."""

    table: str
    keys: tuple[str, ...]
    values: tuple[str, ...]
    found: Callable[[], Iterator[Found]]

    def create(self) -> str:
        columns, keys = ", ".join(self.keys + self.values), ", ".join(self.keys)
        return f"CREATE TABLE IF NOT EXISTS {self.table} ({columns}, PRIMARY KEY ({keys}))"

    def replace(self) -> str:
        return f"REPLACE INTO {self.table} VALUES ({', '.join('?' * (len(self.keys) + len(self.values)))})"

    def delete(self) -> str:
        return f"DELETE FROM {self.table} WHERE {' AND '.join(f'{key} = ?' for key in self.keys)}"


class MotoState:
    """The file beside DynamoDB Local's data: `restore()` at start, `sync()` after each change."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.database = sqlite3.connect(path, check_same_thread=False)
        self.database.execute("PRAGMA journal_mode=WAL")
        for kind in _KINDS:
            self.database.execute(kind.create())
        self._lock = threading.Lock()
        # Per kind: where each thing lives -> the fingerprint of what the file holds for it. moto makes
        # a new Python object for each object or message written (compared by identity, and kept alive
        # here so no other takes its id); a secret's fingerprint is its version and value.
        self._seen: dict[str, dict[Where, object]] = {kind.table: {} for kind in _KINDS}

    def restore(self) -> dict[str, int]:
        """Put what the file holds back into moto's backends; how many of each were restored."""
        for row in self.database.execute("SELECT * FROM objects"):
            _restore_object(*row)
        for row in self.database.execute("SELECT * FROM messages ORDER BY rowid"):
            _restore_message(*row)
        for row in self.database.execute("SELECT * FROM secrets"):
            _restore_secret(*row)
        with self._lock:
            _statements, self._seen = self._changes()  # what was restored is what the file holds
        return {table: len(seen) for table, seen in self._seen.items()}

    def sync(self) -> None:
        """Write what changed in moto's backends since the last sync, in one transaction."""
        with self._lock:
            statements, seen = self._changes()
            if statements:
                with self.database:  # one transaction: committed, or rolled back on an error
                    for statement, values in statements:
                        self.database.execute(statement, values)
            self._seen = seen  # only once written: a failed sync is tried again by the next one

    def _changes(self) -> tuple[list[tuple[str, tuple[Any, ...]]], dict[str, dict[Where, object]]]:
        """The statements that bring the file to what moto holds now, and the fingerprints after them."""
        statements: list[tuple[str, tuple[Any, ...]]] = []
        fingerprints: dict[str, dict[Where, object]] = {}
        for kind in _KINDS:
            seen, now = self._seen[kind.table], fingerprints.setdefault(kind.table, {})
            for where, fingerprint, row in _retrying(kind.found):
                if not _same(seen.get(where), fingerprint):
                    try:
                        statements.append((kind.replace(), (*where, *row())))
                    except ValueError:  # replaced meanwhile (its buffer closed): the file keeps what
                        if where in seen:  # it had until the next sync (the replacing request's)
                            now[where] = seen[where]
                        continue
                now[where] = fingerprint
            statements += [(kind.delete(), where) for where in seen.keys() - now.keys()]
        return statements, fingerprints


def _same(kept: object, found: object) -> bool:
    """Objects and messages are the same Python object; a secret's (version, value) the same values."""
    return kept is found or (isinstance(found, tuple) and kept == found)


def _retrying(found: Callable[[], Iterator[Found]]) -> list[Found]:
    """moto's dicts may change while a request thread reads them: read again."""
    while True:
        try:
            return list(found())
        except RuntimeError:  # "dictionary changed size during iteration"
            continue


def _objects() -> Iterator[Found]:
    from moto.s3.models import s3_backends

    for account, partitions in list(s3_backends.items()):
        for s3 in list(partitions.values()):
            for bucket_name, bucket in list(s3.buckets.items()):
                for key_name, key in bucket.keys.items():
                    if key is None or not hasattr(key, "value"):  # a delete marker has no body
                        continue
                    yield (account, bucket_name, key_name), key, partial(_object_row, bucket, key)


def _object_row(bucket: Any, key: Any) -> tuple[Any, ...]:
    return bucket.region_name, bytes(key.value), json.dumps(dict(key.metadata))


def _restore_object(account: str, bucket: str, key: str, region: str, body: bytes, metadata: str) -> None:
    from moto.s3.models import s3_backends

    s3 = s3_backends[account]["aws"]
    if bucket not in s3.buckets:
        s3.create_bucket(bucket, region)
    s3.put_object(bucket, key, body).set_metadata(json.loads(metadata))


def _messages() -> Iterator[Found]:
    from moto.sqs.models import sqs_backends

    for account, regions in list(sqs_backends.items()):
        for region, sqs in list(regions.items()):
            for queue_name, queue in list(sqs.queues.items()):
                for message in list(queue._messages):
                    yield (account, region, queue_name, message.id), message, partial(_pickled, message)


def _pickled(message: Any) -> tuple[bytes]:
    return (pickle.dumps(message),)


def _restore_message(account: str, region: str, queue: str, _id: str, message: bytes) -> None:
    from moto.sqs.models import sqs_backends

    kept = pickle.loads(message)  # our own file, written by `sync`
    kept.receipt_handle, kept.visible_at = None, 0.0  # in flight when stopped: visible again
    sqs_backends[account][region].create_queue(queue).add_message(kept)


def _secrets() -> Iterator[Found]:
    from moto.secretsmanager.models import secretsmanager_backends

    for account, regions in list(secretsmanager_backends.items()):
        for region, backend in list(regions.items()):
            for name, secret in list(backend.secrets.items()):
                current = getattr(secret, "versions", {}).get(getattr(secret, "default_version_id", None), {})
                value = current.get("secret_string")  # the current version's (a deleted one has none)
                if value is not None:
                    yield (account, region, name), (secret.default_version_id, value), partial(tuple, [value])


def _restore_secret(account: str, region: str, name: str, value: str) -> None:
    from moto.secretsmanager.models import secretsmanager_backends

    backend = secretsmanager_backends[account][region]
    backend.create_secret(name, value, None, None, None, None, None, [], False)


_KINDS = (
    _Kind("objects", ("account", "bucket", "key"), ("region", "body", "metadata"), _objects),
    _Kind("messages", ("account", "region", "queue", "id"), ("message",), _messages),
    _Kind("secrets", ("account", "region", "name"), ("value",), _secrets),
)


class WritingThrough:
    """moto's WSGI app, keeping `state` in step before each answer to a request that may change it."""

    def __init__(self, app: Callable[..., Iterable[bytes]], state: MotoState) -> None:
        self.app, self.state = app, state

    def __call__(self, environ: dict[str, Any], start_response: Any) -> Iterable[bytes]:
        if environ.get("REQUEST_METHOD") in _READS:
            return self.app(environ, start_response)
        answer = list(self.app(environ, start_response))  # werkzeug sends nothing before it is returned
        self.state.sync()
        return answer
