"""A fresh ranges table on the session's DynamoDB Local for each test, and helpers to load it."""

from __future__ import annotations

import uuid
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from tatami.ip_loader.load import LoadOptions, LoadSummary, load, prepare
from tatami.ip_loader.store import RangesStore
from tatami.target import Target
from tatami_functions.ip_lookup.repository import RangesRepository
from tatami_functions.ip_lookup.service import PointerCache
from tatami_functions.ip_lookup.table import RANGES
from tatami_functions.stack_outputs import OUTPUT_IP_RANGES_TABLE
from tests.unit.ip_lookup.ranges_oracle import Range, write_csv


@dataclass
class Ranges:
    """One table: the loader's store, the function's repository, and a place for CSV files."""

    target: Target
    name: str
    folder: Path

    @property
    def client(self) -> Any:
        return self.target.client("dynamodb")

    def store(self, client: Any = None) -> RangesStore:
        return RangesStore(client or self.client, self.name)

    def repository(self) -> RangesRepository:
        return RangesRepository(self.name, self.client)

    def cache(self, ttl: float = 0.0) -> PointerCache:
        return PointerCache(self.repository(), ttl)

    def csv(self, ranges: Iterable[Range], name: str = "ranges.csv") -> Path:
        return write_csv(self.folder / name, ranges)

    def load(self, path: Path, client: Any = None, **options: Any) -> LoadSummary:
        options.setdefault("grace", 0)
        return load(prepare([path]), self.store(client), LoadOptions(**options))

    def scan_keys(self) -> list[str]:
        items = self.client.scan(TableName=self.name, ProjectionExpression="pk")["Items"]
        return sorted(item["pk"]["S"] for item in items)


@pytest.fixture
def ranges(dynamodb_local: str, tmp_path: Path) -> Ranges:
    name = f"ranges-{uuid.uuid4().hex[:8]}"
    target = Target("test", {OUTPUT_IP_RANGES_TABLE: name}, dynamodb_local, None)
    # The declared table (tests/infra/ip_lookup/test_ip_lookup.py checks the template says the same).
    target.client("dynamodb").create_table(**RANGES.create_table_request(name))
    return Ranges(target, name, tmp_path)
