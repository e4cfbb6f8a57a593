"""A document item whose body the bucket no longer has (a local cloud restarted on a folder written
before S3 was kept, an object deleted by hand) is a 404 saying the body is lost: retrying cannot
bring it back, so it is no 503."""

from __future__ import annotations

from typing import Any

import pytest
from botocore.exceptions import ClientError

from tatami_functions.common.errors import ItemNotFoundError
from tatami_functions.documents.exceptions import DocumentBodyLostError, DocumentsUnavailableError
from tatami_functions.documents.repository import DocumentBodiesRepository


class Bucket:
    def __init__(self, code: str) -> None:
        self.code = code

    def get_object(self, **_: Any) -> Any:
        raise ClientError({"Error": {"Code": self.code, "Message": "m"}}, "GetObject")


def test_a_lost_body_is_a_404_naming_the_document() -> None:
    with pytest.raises(
        DocumentBodyLostError, match=r"^document r-1: its body is no longer in the bucket"
    ) as lost:
        DocumentBodiesRepository("bucket", client=Bucket("NoSuchKey")).get("documents/r-1/x", "r-1")  # type: ignore[arg-type]
    assert isinstance(lost.value, ItemNotFoundError) and lost.value.status == 404


def test_a_failing_bucket_is_still_a_503() -> None:
    with pytest.raises(DocumentsUnavailableError, match="S3 is throttling requests"):
        DocumentBodiesRepository("bucket", client=Bucket("SlowDown")).get("documents/r-1/x", "r-1")  # type: ignore[arg-type]
