"""Does a write DynamoDB Local acknowledged survive a SIGKILL of it (`tatami local --db-path`)?

Writers put items as fast as they can into a DynamoDB Local keeping its data in a folder, while the
engine is killed (SIGKILL, its whole process group, as the kernel's OOM killer or `kill -9` would)
and started again on the same folder, as the local cloud's watchdog does. Each writer does what a
function's SDK does: a write that failed because the engine went away is sent again, the same
request, once the engine is back. Two kinds of writes, side by side:

- `put`: PutItem of a new item (one attempt answered = acknowledged);
- `transaction`: TransactWriteItems of two items with a ClientRequestToken (an order and its line),
  retried with the same token, as botocore retries it and as DynamoDB documents for lost answers.

After the last kill, every acknowledged write is looked for: an acknowledged put must be there, an
acknowledged transaction must have both its items. Prints, per kind, writes acknowledged, writes
lost, and the kills; writes bench/results/dynamodb_kill_durability.json (with
`--no-commit-barrier`, as DynamoDB Local answers: dynamodb_kill_durability-no-barrier.json).

    .venv/bin/python bench/dynamodb_kill_durability.py [--kills 5] [--writers 4]
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import tempfile
import threading
import time
import uuid
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from botocore.exceptions import BotoCoreError, ClientError

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from _results import write_results  # noqa: E402

from tatami.clients import FAST_FAIL  # noqa: E402
from tatami.local.engines import commit_barrier  # noqa: E402
from tatami.local.engines import processes as engines  # noqa: E402

RESULTS = REPO / "bench" / "results" / "dynamodb_kill_durability{}.json"  # "-no-barrier" or ""
TABLE = "Durability"
# One attempt per call: the writer itself sends again, so each answer is one attempt's.
ONE_ATTEMPT = FAST_FAIL.config


@dataclass
class Ledger:
    """What the engine acknowledged, by kind; a lock because writers share it."""

    puts: list[str] = field(default_factory=list)
    transactions: list[str] = field(default_factory=list)
    resent: set[str] = field(default_factory=set)  # writes sent again after a failure (engine down)
    lock: threading.Lock = field(default_factory=threading.Lock)


class Engine:
    """DynamoDB Local on one port and folder, killed and started again."""

    def __init__(self, folder: Path) -> None:
        self.folder, self.port = folder, engines.free_port()
        self.engine = self._start()
        self.up = threading.Event()
        self.up.set()

    def _start(self) -> engines.Engine:
        return engines.start_dynamodb_local(self.port, self.folder / "ddb.log", self.folder / "db")

    def kill_and_restart(self) -> float:
        """SIGKILL, then start again on the same folder; the seconds it was down."""
        self.up.clear()
        self.engine.kill()
        assert self.engine.process is not None
        self.engine.process.wait()
        down = time.monotonic()
        self.engine = self._start()
        self.up.set()
        return time.monotonic() - down


def _write(engine: Engine, ledger: Ledger, stop: threading.Event, writer: int, barrier: bool) -> None:
    endpoint = f"http://127.0.0.1:{engine.port}"
    client = engines.dynamodb_client(endpoint, ONE_ATTEMPT)
    if barrier:  # as the local cloud's workers do: a transaction answered once its COMMIT ran
        commit_barrier.attach(client, endpoint)
    n = 0
    while not stop.is_set():
        n += 1
        name = f"w{writer}-{n}"
        kind = "transaction" if n % 2 else "put"
        request = _request(kind, name)
        sends = 0
        while True:  # the same request until answered, as the SDK would (it is idempotent)
            engine.up.wait()
            sends += 1
            try:
                getattr(client, "transact_write_items" if kind == "transaction" else "put_item")(**request)
                break
            except (BotoCoreError, ClientError):
                if stop.is_set() and sends > 50:
                    return
                time.sleep(0.05)
        with ledger.lock:
            (ledger.transactions if kind == "transaction" else ledger.puts).append(name)
            if sends > 1:
                ledger.resent.add(name)


def _request(kind: str, name: str) -> dict[str, Any]:
    if kind == "put":
        return {"TableName": TABLE, "Item": {"pk": {"S": name}}}
    items = [
        {"Put": {"TableName": TABLE, "Item": {"pk": {"S": f"{name}{part}"}}}} for part in ("#order", "#line")
    ]
    return {"TransactItems": items, "ClientRequestToken": str(uuid.uuid5(uuid.NAMESPACE_URL, name))}


def _lost(client: Any, ledger: Ledger) -> dict[str, list[str]]:
    stored = set()
    for page in client.get_paginator("scan").paginate(TableName=TABLE, ConsistentRead=True):
        stored |= {item["pk"]["S"] for item in page["Items"]}
    return {
        "put": [name for name in ledger.puts if name not in stored],
        "transaction": [n for n in ledger.transactions if not {f"{n}#order", f"{n}#line"} <= stored],
        "transaction_half_applied": [
            n for n in ledger.transactions if len({f"{n}#order", f"{n}#line"} & stored) == 1
        ],
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--kills", type=int, default=5)
    parser.add_argument("--writers", type=int, default=4)
    parser.add_argument(
        "--no-commit-barrier",
        action="store_true",
        help="answer transactions as DynamoDB Local does, before their COMMIT (engines/commit_barrier.py)",
    )
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        (Path(folder) / "db").mkdir()
        engine = Engine(Path(folder))
        client = engines.dynamodb_client(f"http://127.0.0.1:{engine.port}")
        client.create_table(
            TableName=TABLE,
            BillingMode="PAY_PER_REQUEST",
            KeySchema=[{"AttributeName": "pk", "KeyType": "HASH"}],
            AttributeDefinitions=[{"AttributeName": "pk", "AttributeType": "S"}],
        )
        ledger, stop = Ledger(), threading.Event()
        barrier = not args.no_commit_barrier
        writers = [
            threading.Thread(target=_write, args=(engine, ledger, stop, w, barrier))
            for w in range(args.writers)
        ]
        for thread in writers:
            thread.start()
        downtimes = []
        for _kill in range(args.kills):
            time.sleep(random.uniform(2.0, 5.0))  # writing between kills
            downtimes.append(engine.kill_and_restart())
        time.sleep(1.0)
        stop.set()
        for thread in writers:
            thread.join()
        lost = _lost(client, ledger)
        engine.engine.stop()
    report = {
        "commit_barrier": not args.no_commit_barrier,
        "kills": args.kills,
        "writers": args.writers,
        "seconds_down": [round(s, 1) for s in downtimes],
        "acknowledged": {"put": len(ledger.puts), "transaction": len(ledger.transactions)},
        "resent_after_a_failure": len(ledger.resent),
        "lost_that_were_resent": sum(name in ledger.resent for names in lost.values() for name in names),
        "lost": {kind: len(names) for kind, names in lost.items()},
        "lost_examples": {kind: names[:5] for kind, names in lost.items()},
    }
    print(json.dumps(report, indent=2))
    results = Path(str(RESULTS).format("-no-barrier" if args.no_commit_barrier else ""))
    write_results(results, report)


if __name__ == "__main__":
    main()
