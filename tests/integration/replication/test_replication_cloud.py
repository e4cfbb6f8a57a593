"""Stream replication on the app's local cloud: 2,000 random puts, updates and deletes written straight
to `logfile` by 8 threads, while the replicator's execution environments are killed mid-stream and
one item cannot be stored in the replica at all; then every stream record is delivered again,
shuffled. The replica ends equal to the source, item for item (labs/replication/records.py `live`).
"""

from __future__ import annotations

import json
import os
import random
import signal
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest

from tatami.local.cloud import LocalCloud
from tatami_functions import stack_outputs
from tatami_functions.replication.records import live
from tests.support.service_tables import largest_item
from tests.support.streams import stream_records
from tests.support.waiting import eventually

HANDLER = "tatami_functions.replication.handler.handler"
OPERATIONS, KEYS, WRITERS = 2000, 250, 8


def replicator(cloud: LocalCloud) -> str:
    (function_id,) = [fid for fid, spec in cloud.assembly.functions.items() if spec.handler == HANDLER]
    return function_id


def worker_pids() -> list[int]:
    """This test process's execution environments of the replicator (the cloud's workers), idle or busy."""
    pids = []
    for proc in Path("/proc").iterdir():
        if not proc.name.isdigit():
            continue
        try:
            stat = (proc / "stat").read_text().rsplit(")", 1)[1].split()
            environ = (proc / "environ").read_bytes()
        except OSError:
            continue
        if int(stat[1]) == os.getpid() and f"_HANDLER={HANDLER}".encode() in environ.split(b"\0"):
            pids.append(int(proc.name))
    return pids


def waiting_for_an_event(pid: int) -> bool:
    """Whether the environment is idle: blocked reading its next event from stdin (syscall 0, `read`,
    on fd 0), which /proc/<pid>/syscall shows as "0 0x0 ..."."""
    try:
        return (Path("/proc") / str(pid) / "syscall").read_text().startswith("0 0x0 ")
    except OSError:
        return False


def contents(cloud: LocalCloud, table: str, replica: bool = False) -> dict[str, Any]:
    client, items, request = cloud.client("dynamodb"), [], {"TableName": table, "ConsistentRead": True}
    while True:
        response = client.scan(**request)
        items += response["Items"]
        if "LastEvaluatedKey" not in response:
            break
        request["ExclusiveStartKey"] = response["LastEvaluatedKey"]
    if replica:
        items = [view for item in items if (view := live(item)) is not None]
    return {item["PK"]["S"]: item for item in items}


def operation(client: Any, table: str, rng: random.Random, n: int) -> None:
    """One random put, update or delete of one of KEYS log lines."""
    key = {"PK": {"S": f"request#mix-{rng.randrange(KEYS)}"}}
    kind = rng.choices(("put", "update", "delete"), (45, 35, 20))[0]
    if kind == "put":
        item = {**key, "requestid": {"N": str(n)}, "host": {"S": f"10.0.0.{rng.randrange(9)}"}}
        item |= {"bytessent": {"N": str(rng.randrange(10_000))}, "GSI_1_PK": {"S": "host#10.0.0.1"}}
        client.put_item(TableName=table, Item=item)
    elif kind == "update":
        client.update_item(
            TableName=table,
            Key=key,
            UpdateExpression="SET bytessent = :b, responsecode = :c ADD hits :one",
            ExpressionAttributeValues={":b": {"N": str(n)}, ":c": {"N": "304"}, ":one": {"N": "1"}},
        )
    else:
        client.delete_item(TableName=table, Key=key)


def chaos(stop: threading.Event, kills: list[int]) -> None:
    """Every 1-2 s, kill the next replicator execution environment seen mid-batch: Lambda's crash path.
    Only one that has waited for an event before, so it is past its init: on a loaded machine an init
    takes seconds, and killing inits would only ever exercise the init-failure path. An idle one
    killed is merely forgotten by the pool, so it would exercise nothing."""
    rng, initialised = random.Random(7), set[int]()
    while not stop.wait(rng.uniform(1.0, 2.0)):
        while not stop.is_set():
            pids = worker_pids()
            idle = {pid for pid in pids if waiting_for_an_event(pid)}
            initialised |= idle
            if running := [pid for pid in pids if pid in initialised and pid not in idle]:
                os.kill(running[0], signal.SIGKILL)
                kills.append(running[0])
                break
            stop.wait(0.01)


def differences(replica: dict[str, Any], source: dict[str, Any]) -> dict[str, Any]:
    """Key by key, what the replica shows against what the source holds (the first few)."""
    keys = sorted(k for k in replica.keys() | source.keys() if replica.get(k) != source.get(k))
    return {k: {"replica": replica.get(k), "source": source.get(k)} for k in keys[:5]} | {"count": len(keys)}


def parked_keys(cloud: LocalCloud) -> list[Any]:
    sqs, url = cloud.client("sqs"), cloud.outputs[stack_outputs.OUTPUT_REPLICATION_FAILURES]
    found = []
    for _ in range(5):
        for message in sqs.receive_message(QueueUrl=url, MaxNumberOfMessages=10).get("Messages", []):
            body = json.loads(message["Body"])
            found.append(body.get("keys") if body.get("condition") == "UnreplicableRecord" else body)
    return found


@pytest.mark.slow
def test_the_replica_equals_the_source_after_2000_operations_crashes_and_redeliveries(
    app_cloud: LocalCloud,
) -> None:
    source = app_cloud.outputs[stack_outputs.OUTPUT_LOGFILE_TABLE]
    replica = app_cloud.outputs[stack_outputs.OUTPUT_LOGFILE_REPLICA_TABLE]
    client = app_cloud.client("dynamodb")
    (mapping,) = [m for m in app_cloud.assembly.stream_mappings if m.function_id == replicator(app_cloud)]
    stats = app_cloud.stream_stats[mapping.logical_id]
    largest_item(client, source, "request#too-big")  # its replica write fails for real (> 400 KB)
    stop, kills = threading.Event(), list[int]()
    killer = threading.Thread(target=chaos, args=(stop, kills), daemon=True)
    killer.start()
    rngs = [random.Random(seed) for seed in range(WRITERS)]
    with ThreadPoolExecutor(WRITERS) as pool:
        list(pool.map(lambda n: operation(client, source, rngs[n % WRITERS], n), range(OPERATIONS)))
    client.put_item(TableName=source, Item={"PK": {"S": "request#too-big"}, "pad": {"S": "now it fits"}})
    eventually(lambda: len(kills) >= 3, timeout=30)
    stop.set()
    killer.join()
    converged = eventually(lambda: contents(app_cloud, replica, True) == contents(app_cloud, source), 180)
    differing = differences(contents(app_cloud, replica, True), contents(app_cloud, source))
    assert converged, f"replica never converged; {stats}, {len(kills)} kills; {differing}"
    crashes = [line for line in app_cloud.log.snapshot() if "stream batch of" in line and "ExitError" in line]
    assert crashes, "no invocation failed: the kills did not exercise the retry path"
    assert stats.records_discarded == 0  # bisection and retries delivered everything in the end
    assert {"PK": {"S": "request#too-big"}} in parked_keys(app_cloud)

    # Redeliver every record of the stream again, shuffled into batches of 100: nothing moves back.
    records = stream_records(app_cloud.client("dynamodb"), app_cloud.client("dynamodbstreams"), source)
    assert len(records) > 1500  # a delete of an absent key streams nothing, as on AWS
    random.Random(11).shuffle(records)
    for start in range(0, len(records), 100):
        invocation = app_cloud.invoke(replicator(app_cloud), {"Records": records[start : start + 100]})
        assert invocation.ok and invocation.result == {"batchItemFailures": []}, invocation.error
    assert contents(app_cloud, replica, True) == contents(app_cloud, source)
    time.sleep(0.5)  # nothing late may change it either
    assert contents(app_cloud, replica, True) == contents(app_cloud, source)
