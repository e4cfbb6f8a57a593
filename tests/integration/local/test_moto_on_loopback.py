"""tatami/local/engines/moto_server.py: moto as the local cloud runs it answers the SDKs, but not a
page of another web site: a foreign `Host` (DNS rebinding) and a write from another origin are 403s
naming the header, and no answer carries CORS headers that would let another origin read it."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import boto3
import pytest
import requests

from tatami.local.engines import processes as engines
from tatami.local.template.intrinsics import LOCAL_REGION

EVIL = "https://evil.example"


@pytest.fixture(scope="module")
def moto(tmp_path_factory: pytest.TempPathFactory) -> Iterator[engines.Engine]:
    folder: Path = tmp_path_factory.mktemp("moto")
    engine = engines.start_moto(engines.free_port(), folder / "moto.log")
    yield engine
    engine.stop()


def test_the_sdks_are_served(moto: engines.Engine) -> None:
    s3 = boto3.client("s3", endpoint_url=moto.endpoint, region_name=LOCAL_REGION, **engines.LOCAL_CREDENTIALS)
    s3.create_bucket(Bucket="served")
    s3.put_object(Bucket="served", Key="k", Body=b"v")
    assert s3.get_object(Bucket="served", Key="k")["Body"].read() == b"v"


def test_a_foreign_host_is_refused(moto: engines.Engine) -> None:
    answer = requests.get(f"{moto.endpoint}/", headers={"Host": "evil.example"}, timeout=5)
    assert answer.status_code == 403
    assert answer.json()["header"] == "Host"
    assert "evil.example" in answer.json()["message"]


def test_a_write_from_another_origin_is_refused_and_not_done(moto: engines.Engine) -> None:
    create = {"Action": "CreateQueue", "QueueName": "forged"}  # a form any page may POST unasked
    answer = requests.post(moto.endpoint, data=create, headers={"Origin": EVIL}, timeout=5)
    assert (answer.status_code, answer.json()["header"]) == (403, "Origin")
    across = requests.post(moto.endpoint, data=create, headers={"Sec-Fetch-Site": "cross-site"}, timeout=5)
    assert across.status_code == 403
    sqs = boto3.client(
        "sqs", endpoint_url=moto.endpoint, region_name=LOCAL_REGION, **engines.LOCAL_CREDENTIALS
    )
    assert "QueueUrls" not in sqs.list_queues(QueueNamePrefix="forged")


def test_no_origin_is_allowed_to_read(moto: engines.Engine) -> None:
    preflight = requests.options(
        f"{moto.endpoint}/served/k",
        headers={"Origin": EVIL, "Access-Control-Request-Method": "GET"},
        timeout=5,
    )
    read = requests.get(f"{moto.endpoint}/served/k", headers={"Origin": EVIL}, timeout=5)
    for answer in (preflight, read):
        assert "Access-Control-Allow-Origin" not in answer.headers
