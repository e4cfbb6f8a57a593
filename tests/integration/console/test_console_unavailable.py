"""The console while DynamoDB Local is frozen (SIGSTOP: connections open, nothing answers): a prompt
503 with Retry-After, in words that name no endpoint, and served again once it thaws (issue 36)."""

from __future__ import annotations

import time

import requests

from tatami.console import mount
from tatami.console.sources import CONSOLE_CALLS
from tatami.local.cloud import LocalCloud
from tatami_functions.common.dependencies import worst_case_seconds
from tests.support.failing import frozen


def test_a_frozen_dynamodb_is_a_prompt_503_that_shows_no_endpoint(app_cloud: LocalCloud) -> None:
    console = mount(app_cloud)
    table = requests.get(f"{console}/api/tables", timeout=30).json()[0]["name"]
    items = f"{console}/api/items?table={table}&limit=5"
    assert requests.get(items, timeout=30).status_code == 200
    with frozen(app_cloud):
        started = time.monotonic()
        answer = requests.get(items, timeout=60)
        seconds = time.monotonic() - started
    assert answer.status_code == 503 and answer.headers["Retry-After"] == "5"
    assert answer.json() == {"message": "console items: DynamoDB did not answer in time; retry after 5 s"}
    assert str(app_cloud.config.dynamodb_port) not in answer.text
    print(f"503 after {seconds:.1f} s (budget {worst_case_seconds(CONSOLE_CALLS):g} s)")
    assert seconds < worst_case_seconds(CONSOLE_CALLS) + 2.0  # not botocore's minutes
    assert requests.get(items, timeout=30).status_code == 200  # thawed, served again
