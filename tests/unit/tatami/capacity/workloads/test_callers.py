"""Open-loop callers as the SDK sees them: one client per environment, what each request went through.

A caller is a function's environment with a client of its own (`workloads.callers`, `env_client`):
its retries, its quota and (adaptive mode) its rate limiter are its own. A throttled transaction
is cancelled, which no retry mode retries; a plain throttled call is retried as its mode says.
"""

from __future__ import annotations

import pytest

from tatami.capacity.model.space import ACC_REQ, ACC_W
from tatami.capacity.reports.report import Report
from tatami.capacity.reports.run import simulate
from tatami.capacity.workloads.builders import IDEMPOTENCY, Setting, counter_workload
from tatami.capacity.workloads.env_client import EnvClient
from tatami.capacity.workloads.sdk import ADAPTIVE, LEGACY, STANDARD, ClientConfig, SdkClient


def hot_counter(mode: str, keyed: float = 0.0, rate: float = 3000.0) -> Report:
    """One shard (one item) incremented `rate` times a second for 20 s."""
    return simulate(counter_workload("votes", 1, rate, 20, Setting(client=ClientConfig(mode)), keyed))


def test_keyed_increments_are_transactions_that_fail_at_once_when_throttled() -> None:
    report = hot_counter(STANDARD, keyed=1.0, rate=600)
    seen = report.outcomes["keyed increments"]
    assert 480 <= report.throughput <= 520  # 2 units each on the shard: its 1,000 take 500 a second
    assert seen.retries == 0 and 0.13 < seen.failed_share < 0.2  # about 100 of 600 a second cancelled
    assert seen.quantile(0.99) == pytest.approx(0.005)  # cancelled at once: one round trip
    records, shards = report.totals(IDEMPOTENCY)[ACC_W], report.totals("table")[ACC_W]
    assert records == pytest.approx(shards) and shards == pytest.approx(2 * report.table_totals()[ACC_REQ])
    assert report.tables == ["table"]  # the records' table counts with the increments, not beside them


def test_plain_increments_are_retried_and_each_mode_makes_them_wait_its_own_way() -> None:
    runs = {mode: hot_counter(mode) for mode in (LEGACY, STANDARD, ADAPTIVE)}
    seen = {mode: report.outcomes["increments"] for mode, report in runs.items()}
    assert all(outcome.retries > 0 for outcome in seen.values())
    # standard and adaptive give up after 4 attempts; legacy tries 10 times over 25 s, so more get in
    assert seen[LEGACY].failed_share < seen[STANDARD].failed_share
    # adaptive's limiter, per environment, holds calls back after a throttle: time added, not saved
    assert seen[ADAPTIVE].added_latency(0.005) > 1.3 * seen[STANDARD].added_latency(0.005)
    assert runs[ADAPTIVE].verdict is not None and runs[ADAPTIVE].verdict.seen[0].operation == "increments"


def test_an_environments_quota_runs_dry_and_comes_back_with_successes() -> None:
    env = EnvClient(SdkClient(ClientConfig(STANDARD)), now=0.0, measured=10.0)
    sleeps = [env.throttled(1, {}, 0.0) for _ in range(101)]
    assert sleeps[:100] == [1.0] * 100 and sleeps[100] is None  # 500 tokens, 5 a throttled retry
    assert not env.pristine
    for _ in range(5):
        env.answered({}, 1.0)  # a success that needed no retry gives one back
    assert env.throttled(1, {}, 1.0) == 1.0
    retried: dict[str, object] = {}
    twin = env.copy()
    twin.throttled(1, retried, 1.0)
    twin.answered(retried, 2.0)  # a retried success gives back what its retry took
    assert twin.key == env.key


def test_an_adaptive_environment_waits_for_its_own_token_after_a_throttle() -> None:
    env = EnvClient(SdkClient(ClientConfig(ADAPTIVE)), now=100.0, measured=20.0)
    assert env.send_at(100.0) == 100.0 and not env.pristine  # marked: adaptive keeps its limiter for good
    env.throttled(1, {}, 100.0)  # its limiter switches on at 0.7 x what it measured: 14 calls a second
    sends = [env.send_at(100.0) for _ in range(5)]
    assert sends[0] == 100.0 and max(sends) > 100.0  # the bucket's token, then a wait
    other = EnvClient(SdkClient(ClientConfig(ADAPTIVE)), now=100.0, measured=20.0)
    assert other.send_at(100.0) == 100.0  # another environment's limiter is its own
