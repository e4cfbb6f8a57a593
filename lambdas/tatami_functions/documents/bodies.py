"""Document bodies: gzip inline in the item when small, S3 objects when not (see models.py for why).

Every upload gets a new object key (`documents/<report_id>/<random>`), so a concurrent writer can
never overwrite the object a live item points to; the service deletes the old object after the item
has moved on.
"""

from __future__ import annotations

import gzip
import uuid
from dataclasses import dataclass
from typing import TYPE_CHECKING, Self

from botocore.exceptions import BotoCoreError

from tatami_functions.common.repository import Repository
from tatami_functions.documents.exceptions import DocumentsUnavailableError
from tatami_functions.documents.models import INLINE_MAX_BYTES
from tatami_functions.documents.settings import DocumentsSettings

if TYPE_CHECKING:
    from mypy_boto3_s3 import S3Client

PREFIX = "documents/"


@dataclass(frozen=True, slots=True)
class Packed:
    """A body ready to store: compressed bytes to keep inline, or None when it belongs in S3."""

    text: str
    inline: bytes | None


def pack(text: str, inline_max: int = INLINE_MAX_BYTES) -> Packed:
    """Compress a body and decide where it goes (`mtime=0`: the same text packs to the same bytes).

    >>> pack("売上" * 1000).inline is not None  # repetitive text compresses far below 8 KiB
    True
    >>> import os
    >>> pack(os.urandom(20_000).hex()).inline is None  # random hex does not
    True
    """
    compressed = gzip.compress(text.encode(), mtime=0)
    return Packed(text, compressed if len(compressed) <= inline_max else None)


def unpack(compressed: bytes) -> str:
    """The text of an inline body.

    >>> unpack(gzip.compress("紀尾井町".encode()))
    '紀尾井町'
    """
    return gzip.decompress(compressed).decode()


def new_key(report_id: str) -> str:
    return f"{PREFIX}{report_id}/{uuid.uuid4().hex}"


class DocumentBodies(Repository["S3Client"]):
    """The S3 side of document bodies.

    >>> DocumentBodies("tatami-documents").put("documents/r1/abc", "text")  # doctest: +SKIP
    """

    service, unavailable = "s3", DocumentsUnavailableError

    def __init__(self, bucket: str, client: S3Client | None = None) -> None:
        super().__init__(client)
        self.bucket = bucket

    @classmethod
    def _from_env(cls) -> Self:
        return cls(DocumentsSettings.from_env().bucket)

    def put(self, key: str, text: str) -> None:
        self._call(
            "put_object",
            action="store a document body",
            Bucket=self.bucket,
            Key=key,
            Body=text.encode(),
            ContentType="text/plain; charset=utf-8",
        )

    def get(self, key: str) -> str:
        response = self._call("get_object", action="read a document body", Bucket=self.bucket, Key=key)
        try:
            data: bytes = response["Body"].read()
        except BotoCoreError as exc:  # the body streams in after the call answered
            raise self._failure("get_object", "read a document body", exc) from exc
        return data.decode()

    def delete(self, key: str) -> None:
        self._call("delete_object", action="delete a document body", Bucket=self.bucket, Key=key)
