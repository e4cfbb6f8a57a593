"""The counters table: per counter name, a `config` item (its shard count) and a `rollup` item.

Key: partition `name`, sort `item` ("config" | "rollup"). The roll-up item holds, per shard n, an
attribute `s<n>` = [version, count, approximate time] of the newest stream record applied for that
shard; the counter's roll-up value is the sum of the counts. A write only replaces entries whose
stored version is older, so redelivered or reordered records change nothing.
"""

from __future__ import annotations

import re
from datetime import UTC, datetime
from typing import Any, cast

from botocore.exceptions import ClientError

from tatami_functions.common.repository import CONDITION_FAILED
from tatami_functions.counters.exceptions import CounterUnavailableError, RollupWriteError
from tatami_functions.counters.model import CounterConfig, ShardState
from tatami_functions.counters.repository import CountersRepository

NAME, ITEM = "name", "item"
CONFIG, ROLLUP = "config", "rollup"
_SHARD_ATTRIBUTE = re.compile(r"^s(\d+)$")
_ENTRIES_PER_WRITE = 50  # keeps each update and condition expression well under the 4 KB limit
_ATTEMPTS = 4


class _ConditionFailed(Exception):
    """A conditional write lost; its cause is the ClientError (with the item, when asked for)."""

    def old_item(self) -> dict[str, Any]:
        return cast(dict[str, Any], cast(ClientError, self.__cause__).response.get("Item", {}))


def _key(name: str, item: str) -> dict[str, Any]:
    return {NAME: {"S": name}, ITEM: {"S": item}}


def _config(item: dict[str, Any]) -> CounterConfig:
    return CounterConfig(
        name=item[NAME]["S"],
        shards=int(item["shards"]["N"]),
        target_wcu=int(item["target_wcu"]["N"]),
        safety_factor=float(item["safety_factor"]["N"]),
    )


def parse_rollup(item: dict[str, Any]) -> dict[int, ShardState]:
    """The shard entries of a roll-up item (low-level attribute values).

    >>> parse_rollup({"s3": {"L": [{"N": "2"}, {"N": "7"}, {"N": "1700000000"}]}})
    {3: ShardState(version=2, count=7, at=1700000000)}
    """
    entries = {}
    for attribute, value in item.items():
        match = _SHARD_ATTRIBUTE.match(attribute)
        if match and "L" in value:
            version, count, at = (int(element["N"]) for element in value["L"])
            entries[int(match.group(1))] = ShardState(version, count, at)
    return entries


class CountersTable(CountersRepository):
    """Counter configurations (the writer creates and grows them) and roll-up items (the roll-up)."""

    noun, table_setting = "counters", "counters_table"

    def get_config(self, name: str, consistent: bool = False) -> CounterConfig | None:
        """The stored configuration of `name`, or None when there is no such counter.

        >>> CountersTable.from_environment().get_config("votes-A")  # doctest: +SKIP
        CounterConfig(name='votes-A', shards=150, target_wcu=100000, safety_factor=1.5)
        """
        key = _key(name, CONFIG)
        item = self._call("get_item", TableName=self.table_name, Key=key, ConsistentRead=consistent)
        return _config(item["Item"]) if "Item" in item else None

    def create_config(self, config: CounterConfig) -> CounterConfig | None:
        """Store a new counter; None when created, else the configuration that already exists."""
        try:
            self._call(
                "put_item",
                errors={CONDITION_FAILED: _ConditionFailed()},
                TableName=self.table_name,
                Item={**_key(config.name, CONFIG), **_config_attributes(config, created=True)},
                ConditionExpression="attribute_not_exists(#n)",
                ExpressionAttributeNames={"#n": NAME},
                ReturnValuesOnConditionCheckFailure="ALL_OLD",
            )
        except _ConditionFailed as exists:
            old = exists.old_item()
            return _config(old) if old else self.get_config(config.name, True)
        return None

    def grow_config(self, config: CounterConfig, current_shards: int) -> bool:
        """Raise the shard count from `current_shards`; False when another writer changed it first."""
        values = _config_attributes(config, created=False)
        try:
            self._call(
                "update_item",
                errors={CONDITION_FAILED: _ConditionFailed()},
                TableName=self.table_name,
                Key=_key(config.name, CONFIG),
                UpdateExpression="SET shards = :shards, target_wcu = :target_wcu, "
                "safety_factor = :safety_factor, updated_at = :updated_at",
                ConditionExpression="shards = :current",
                ExpressionAttributeValues={
                    **{f":{name}": value for name, value in values.items()},
                    ":current": {"N": str(current_shards)},
                },
            )
        except _ConditionFailed:
            return False
        return True

    def read_rollup(
        self, name: str, consistent: bool = False
    ) -> tuple[CounterConfig | None, dict[int, ShardState]]:
        """The configuration and the roll-up entries of `name` in one Query (both share its partition)."""
        response = self._call(
            "query",
            TableName=self.table_name,
            KeyConditionExpression="#n = :name",
            ExpressionAttributeNames={"#n": NAME},
            ExpressionAttributeValues={":name": {"S": name}},
            ConsistentRead=consistent,
        )
        items = {item[ITEM]["S"]: item for item in response["Items"]}
        config = _config(items[CONFIG]) if CONFIG in items else None
        return config, parse_rollup(items.get(ROLLUP, {}))

    def save_rollup(self, name: str, states: dict[int, ShardState]) -> None:
        """Apply the newest known state of some shards to the roll-up item of `name`, idempotently.

        Entries whose stored version is as new or newer are left alone (a redelivered batch, or a
        record older than one already applied). RollupWriteError when DynamoDB rejects the write.
        """
        ordered = sorted(states.items())
        for start in range(0, len(ordered), _ENTRIES_PER_WRITE):
            self._save_entries(name, dict(ordered[start : start + _ENTRIES_PER_WRITE]))

    def _save_entries(self, name: str, entries: dict[int, ShardState]) -> None:
        for _ in range(_ATTEMPTS):
            if not entries:
                return
            try:
                self._call(
                    "update_item",
                    errors={CONDITION_FAILED: _ConditionFailed()},
                    TableName=self.table_name,
                    Key=_key(name, ROLLUP),
                    **_rollup_update(entries),
                )
                return
            except CounterUnavailableError as exc:  # the stream function reports its records as failed
                raise RollupWriteError(name, str(exc)) from exc
            except _ConditionFailed as stale:
                # Some entries are already as new: keep only those still behind and write again.
                stored = parse_rollup(stale.old_item())
                entries = {
                    n: s for n, s in entries.items() if n not in stored or stored[n].version < s.version
                }
        raise RollupWriteError(name, f"version conditions kept failing for shards {sorted(entries)}")


def _config_attributes(config: CounterConfig, created: bool) -> dict[str, Any]:
    now = {"S": datetime.now(UTC).isoformat(timespec="seconds").replace("+00:00", "Z")}
    return {
        "shards": {"N": str(config.shards)},
        "target_wcu": {"N": str(config.target_wcu)},
        "safety_factor": {"N": str(config.safety_factor)},
        ("created_at" if created else "updated_at"): now,
    }


def _rollup_update(entries: dict[int, ShardState]) -> dict[str, Any]:
    names: dict[str, str] = {}
    values: dict[str, Any] = {}
    sets: list[str] = []
    conditions: list[str] = []
    for i, (shard, state) in enumerate(entries.items()):
        names[f"#s{i}"] = f"s{shard}"
        values[f":l{i}"] = {"L": [{"N": str(state.version)}, {"N": str(state.count)}, {"N": str(state.at)}]}
        values[f":v{i}"] = {"N": str(state.version)}
        sets.append(f"#s{i} = :l{i}")
        conditions.append(f"(attribute_not_exists(#s{i}) OR #s{i}[0] < :v{i})")
    return {
        "UpdateExpression": "SET " + ", ".join(sets),
        "ConditionExpression": " AND ".join(conditions),
        "ExpressionAttributeNames": names,
        "ExpressionAttributeValues": values,
        "ReturnValuesOnConditionCheckFailure": "ALL_OLD",
    }
