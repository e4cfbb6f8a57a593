"""The mix of bench/load.py: what a service's clients do at once, closed loop (no think time).

Lookups (one address, a batch of 3), box searches, counter increments (each with its own
Idempotency-Key) and reads, and locker writes. Every accepted increment and written locker is
tallied, so the driver can check the totals afterwards. Bounded: the run ends after
LOAD_MAX_REQUESTS requests (or locust's --run-time, whichever comes first).
"""

from __future__ import annotations

import json
import os
import random
import uuid
from typing import Any

from locust import FastHttpUser, constant, events, task

COUNTERS = json.loads(os.environ.get("LOAD_COUNTERS", '["load-0"]'))
MAX_REQUESTS = int(os.environ.get("LOAD_MAX_REQUESTS", "5000"))
TALLY: dict[str, Any] = {"increments": dict.fromkeys(COUNTERS, 0), "lockers": {}, "requests": 0}
PREFECTURES = ["東京都", "大阪府", "北海道", "千葉県", "福岡県"]


@events.request.add_listener
def _count(**_: Any) -> None:
    TALLY["requests"] += 1
    if TALLY["requests"] >= MAX_REQUESTS and _runner is not None:
        _runner.quit()


_runner: Any = None


@events.init.add_listener
def _keep_runner(environment: Any, **_: Any) -> None:
    global _runner
    _runner = environment.runner


@events.quitting.add_listener
def _write_tally(**_: Any) -> None:
    with open(os.environ["LOAD_TALLY"], "w", encoding="utf-8") as out:
        json.dump(TALLY, out, ensure_ascii=False)


FIRST_OCTETS = [1, 8, 14, 27, 36, 43, 49, 58, 101, 133, 150, 202, 210]


def _address(rng: random.Random) -> str:
    return ".".join(str(part) for part in (rng.choice(FIRST_OCTETS), *rng.randbytes(3)))


class ApiClient(FastHttpUser):
    wait_time = constant(0)

    @task(30)
    def lookup(self) -> None:
        with self.client.get(
            f"/ip/{_address(random)}", name="GET /ip/{address}", catch_response=True
        ) as answer:
            if answer.status_code == 404:  # an address in no loaded range: the contract's answer
                answer.success()

    @task(5)
    def lookups(self) -> None:
        addresses = [_address(random) for _ in range(3)]
        self.client.post("/ip/lookups", json={"addresses": addresses}, name="POST /ip/lookups")

    @task(15)
    def search(self) -> None:
        lat, lon = random.uniform(30, 44), random.uniform(130, 144)
        box = f"latitude_min={lat}&latitude_max={lat + 1}&longitude_min={lon}&longitude_max={lon + 1}"
        self.client.get(f"/places/search?{box}", name="GET /places/search")

    @task(20)
    def increment(self) -> None:
        name = random.choice(COUNTERS)
        headers = {"Idempotency-Key": uuid.uuid4().hex}
        with self.client.post(
            f"/counters/{name}/increments",
            json={"by": 1},
            headers=headers,
            name="POST /counters/{name}/increments",
            catch_response=True,
        ) as response:
            if response.status_code == 200:
                TALLY["increments"][name] += 1

    @task(10)
    def read_counter(self) -> None:
        self.client.get(f"/counters/{random.choice(COUNTERS)}", name="GET /counters/{name}")

    @task(10)
    def write_locker(self) -> None:
        locker_id = f"load-{uuid.uuid4().hex[:12]}"
        state = random.choice(PREFECTURES)
        body = {"state": state, "location": f"区{random.randrange(20)}", "name": locker_id, "address": "1-1"}
        response = self.client.put(f"/lockers/{locker_id}", json=body, name="PUT /lockers/{id}")
        if response.status_code in (200, 201):
            TALLY["lockers"][locker_id] = body
