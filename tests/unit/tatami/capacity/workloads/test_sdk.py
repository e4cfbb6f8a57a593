"""The SDK's retry rules are botocore's, run on the simulated clock (`workloads.sdk`)."""

from __future__ import annotations

import pytest

from tatami.capacity.workloads.sdk import ADAPTIVE, LEGACY, STANDARD, ClientConfig, SdkClient


def test_each_mode_has_the_attempts_botocore_gives_dynamodb() -> None:
    assert ClientConfig(LEGACY).attempts == 10  # botocore's _retry.json, DynamoDB's entry
    assert ClientConfig(STANDARD).attempts == 4  # standard mode's default for DynamoDB
    assert ClientConfig(ADAPTIVE, max_attempts=11).attempts == 11


def test_legacy_sleeps_50_ms_doubling_without_jitter_then_gives_up() -> None:
    sdk = SdkClient(ClientConfig(LEGACY))
    delays = [sdk.retry_delay(attempt, {}, 0.0) for attempt in range(1, 11)]
    assert delays[:9] == pytest.approx([0.05 * 2**n for n in range(9)])
    assert delays[9] is None


def test_standard_sleeps_a_jittered_power_of_two_and_gives_up_after_four_attempts() -> None:
    sdk = SdkClient(ClientConfig(STANDARD))
    for attempt in (1, 2, 3):
        delay = sdk.retry_delay(attempt, {}, 0.0)
        assert delay is not None and 0 <= delay <= 2 ** (attempt - 1)
    assert sdk.retry_delay(4, {}, 0.0) is None


def test_the_standard_retry_quota_runs_dry_after_100_throttled_retries_and_refills_on_success() -> None:
    sdk = SdkClient(ClientConfig(STANDARD))
    granted = [sdk.retry_delay(1, {}, 0.0) is not None for _ in range(101)]
    assert granted == [True] * 100 + [False]  # 500 tokens, 5 a retry
    context: dict[str, object] = {}
    assert sdk.retry_delay(1, context, 0.0) is None
    for _ in range(5):
        sdk.succeeded({}, 0.0)  # a call that needed no retry gives one token back
    assert sdk.retry_delay(1, {}, 0.0) is not None


def test_adaptive_holds_calls_back_once_throttled() -> None:
    sdk = SdkClient(ClientConfig(ADAPTIVE))
    assert sdk.send_at(0.0) == 0.0  # no limit before a throttle
    for tick in range(200):
        sdk.succeeded({}, tick * 0.01)  # 100 calls a second measured
    sdk.retry_delay(1, {}, 2.0)
    sends = [sdk.send_at(2.0) for _ in range(200)]
    assert max(sends) > 2.0  # the token bucket now spaces the calls out


def test_a_bad_configuration_names_what_is_wrong() -> None:
    with pytest.raises(ValueError, match="retry mode"):
        ClientConfig("eager")
    with pytest.raises(ValueError, match="latency"):
        ClientConfig(latency=0)
