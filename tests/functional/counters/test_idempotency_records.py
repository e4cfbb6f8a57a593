"""The keyed increments' records: a key lives 24 hours (an expired record the TTL has not swept yet
is taken over), and records Powertools Idempotency wrote before the upgrade still replay."""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from typing import Any

from tatami_functions.counters.idempotency import new_record

Call = Callable[..., tuple[int, dict[str, Any], dict[str, str]]]  # the `call` fixture


def _put_record(aws: Any, name: str, key: str, by: int, **attributes: Any) -> None:
    record = new_record(name, key, "", by, {"name": name, "by": by, "replayed": False})
    item = {"id": {"S": record.id}, "validation": {"S": record.validation}, **attributes}
    aws.put_item(TableName="idem", Item=item)


def _send(call: Call, name: str, key: str, by: int = 3) -> tuple[int, dict[str, Any]]:
    headers = {"Idempotency-Key": key}
    status, body, _ = call("POST", f"/counters/{name}/increments", {"by": by}, headers=headers)
    return status, body


def test_an_expired_record_not_yet_swept_lets_its_key_count_again(call: Call, aws: Any) -> None:
    call("PUT", "/counters/expired")
    past = {"N": str(int(time.time()) - 1)}
    _put_record(aws, "expired", "old", 3, status={"S": "COMPLETED"}, data={"S": "{}"}, expiration=past)
    assert _send(call, "expired", "old") == (200, {"name": "expired", "by": 3, "replayed": False})
    assert call("GET", "/counters/expired")[1]["value"] == 3


def test_records_powertools_wrote_before_still_replay_or_hold_their_key(call: Call, aws: Any) -> None:
    call("PUT", "/counters/legacy")
    later = {"N": str(int(time.time()) + 3600)}
    answer = {"S": json.dumps({"name": "legacy", "by": 3, "replayed": False})}
    _put_record(aws, "legacy", "done", 3, status={"S": "COMPLETED"}, data=answer, expiration=later)
    assert _send(call, "legacy", "done") == (200, {"name": "legacy", "by": 3, "replayed": True})
    running = {"N": str(int(time.time() * 1000) + 60_000)}
    in_progress = {"status": {"S": "INPROGRESS"}, "in_progress_expiration": running}
    _put_record(aws, "legacy", "busy", 3, expiration=later, **in_progress)
    status, body = _send(call, "legacy", "busy")
    assert status == 409 and body["message"].startswith("Idempotency-Key:")
    assert call("GET", "/counters/legacy")[1]["value"] == 0  # neither counted again
