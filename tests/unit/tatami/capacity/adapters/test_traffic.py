"""Recorded calls -> accesses (which key, which index, how many units) -> key ranking and replay."""

from __future__ import annotations

from tatami.capacity.adapters.accesses import Access, Schema, accesses
from tatami.capacity.adapters.traffic import key_stats, replay
from tatami.capacity.model.space import THR_REQ
from tatami.capacity.reports.run import simulate
from tatami.capacity.workloads.builders import Setting

SCHEMAS = {"Orders": Schema("Orders", "pk", "sk", {"ByStatus": ("status", "created")})}


def record(t: float, op: str, request: dict, consumed: object) -> dict:
    return {"t": t, "src": "fn", "op": op, "req": {"TableName": "Orders", **request}, "cc": consumed}


def test_a_put_writes_the_table_and_the_index_its_item_carries() -> None:
    item = {"pk": {"S": "o-1"}, "sk": {"N": "1"}, "status": {"S": "PENDING"}, "created": {"N": "7"}}
    consumed = {
        "TableName": "Orders",
        "CapacityUnits": 2.0,
        "Table": {"CapacityUnits": 1.0},
        "GlobalSecondaryIndexes": {"ByStatus": {"CapacityUnits": 1.0}},
    }
    found = list(accesses([record(1.0, "PutItem", {"Item": item}, consumed)], SCHEMAS))
    assert [(a.index, a.pk, a.units, a.write) for a in found] == [
        ("", {"S": "o-1"}, 1.0, True),
        ("ByStatus", {"S": "PENDING"}, 1.0, True),
    ]


def test_a_batch_shares_its_units_by_item_size_and_updates_move_index_keys_by_set() -> None:
    small, large = {"pk": {"S": "a"}}, {"pk": {"S": "b"}, "blob": {"S": "x" * 3000}}
    batch = {"RequestItems": {"Orders": [{"PutRequest": {"Item": small}}, {"PutRequest": {"Item": large}}]}}
    update = {
        "Key": {"pk": {"S": "c"}},
        "UpdateExpression": "SET #s = :s ADD n :one",
        "ExpressionAttributeNames": {"#s": "status"},
        "ExpressionAttributeValues": {":s": {"S": "DONE"}, ":one": {"N": "1"}},
    }
    records = [
        {
            "t": 1.0,
            "src": "cli",
            "op": "BatchWriteItem",
            "req": batch,
            "cc": [{"TableName": "Orders", "CapacityUnits": 4.0}],
        },
        record(
            2.0,
            "UpdateItem",
            update,
            {
                "TableName": "Orders",
                "Table": {"CapacityUnits": 1.0},
                "GlobalSecondaryIndexes": {"ByStatus": {"CapacityUnits": 2.0}},
            },
        ),
    ]
    found = list(accesses(records, SCHEMAS))
    assert [(a.pk["S"], a.index, a.units) for a in found] == [
        ("a", "", 1.0),
        ("b", "", 3.0),
        ("c", "", 1.0),
        ("DONE", "ByStatus", 2.0),
    ]


def test_queries_read_the_key_of_their_condition_on_the_index_they_name() -> None:
    query = {
        "IndexName": "ByStatus",
        "KeyConditionExpression": "#s = :s AND created > :t",
        "ExpressionAttributeNames": {"#s": "status"},
        "ExpressionAttributeValues": {":s": {"S": "PENDING"}, ":t": {"N": "0"}},
    }
    consumed = {
        "TableName": "Orders",
        "CapacityUnits": 0.5,
        "Table": {"CapacityUnits": 0.0},
        "GlobalSecondaryIndexes": {"ByStatus": {"CapacityUnits": 0.5}},
    }
    (access,) = accesses([record(1.0, "Query", query, consumed)], SCHEMAS)
    assert (access.index, access.pk, access.units, access.write) == ("ByStatus", {"S": "PENDING"}, 0.5, False)


def hot_and_calm() -> list[Access]:
    """100 updates a second for 4 s, every other one of the key "hot", the rest of keys of their own."""
    records = [
        record(
            t / 100,
            "UpdateItem",
            {"Key": {"pk": {"S": "hot" if t % 2 else f"k{t}"}}},
            {"TableName": "Orders", "CapacityUnits": 1.0},
        )
        for t in range(400)
    ]
    return list(accesses(records, SCHEMAS))


def test_the_hottest_key_ranks_first_and_its_replay_at_scale_throttles() -> None:
    found = hot_and_calm()
    ranked = key_stats(found)["Orders"]
    assert ranked[0].key == "hot" and ranked[0].write_units == 200 and ranked[0].peak == 50
    calm = simulate(replay(found, Setting(), scale=10))
    hot = simulate(replay(found, Setting(), scale=50))
    assert calm.totals()[THR_REQ] == 0  # 500 a second on one key fits its partition
    assert hot.totals()[THR_REQ] > 0
    assert hot.verdict is not None and hot.verdict.kinds[0] in ("hot key", "hot item")
    assert hot.verdict.diagnoses[0].keys == ("hot",)


def test_a_replayed_hot_key_is_told_the_key_values_its_recorded_calls_need_not_their_retries() -> None:
    # 100 updates a second recorded, half of them of "hot", replayed 50 times over: 5,000 write units a
    # second on the table, 2,500 on the one key, which 3 partition key values carry (1,000 each)
    found = hot_and_calm()
    workload = replay(found, Setting(), scale=50)
    assert workload.demand.peak("Orders") == (5000.0, 0.0)
    report = simulate(workload)
    assert report.verdict is not None
    spread = next(fix for fix in report.verdict.diagnoses[0].fixes if fix.setting == "shards")
    assert spread.value == 3
