"""tatami/local/engines/moto_state.py: moto server killed outright (SIGKILL) and started again on its
file has every object, message and secret it acknowledged, and nothing it acknowledged deleting."""

from __future__ import annotations

import os
import signal
from pathlib import Path
from typing import Any

import boto3

from tatami.local.engines import processes as engines
from tatami.local.template.intrinsics import LOCAL_REGION

BUCKET = "kept-bucket"


def _clients(engine: engines.Engine) -> tuple[Any, Any, Any]:
    def client(service: str) -> Any:
        return boto3.client(
            service, endpoint_url=engine.endpoint, region_name=LOCAL_REGION, **engines.LOCAL_CREDENTIALS
        )

    return client("s3"), client("sqs"), client("secretsmanager")


def _killed(engine: engines.Engine) -> None:
    assert engine.process is not None
    os.killpg(engine.process.pid, signal.SIGKILL)
    engine.process.wait()


def test_what_moto_acknowledged_survives_a_kill(tmp_path: Path) -> None:
    start = lambda: engines.start_moto(engines.free_port(), tmp_path / "moto.log", tmp_path)  # noqa: E731
    engine = start()
    s3, sqs, secrets = _clients(engine)
    s3.create_bucket(Bucket=BUCKET)
    s3.put_object(Bucket=BUCKET, Key="documents/r1/a", Body="本文".encode(), ContentType="text/plain")
    s3.put_object(Bucket=BUCKET, Key="replaced", Body=b"old")
    s3.put_object(Bucket=BUCKET, Key="replaced", Body=b"new", Metadata={"kept": "yes"})
    s3.put_object(Bucket=BUCKET, Key="deleted", Body=b"x")
    s3.delete_object(Bucket=BUCKET, Key="deleted")
    queue = sqs.create_queue(QueueName="parked")["QueueUrl"]
    for body in ("first", "second", "in flight"):
        sqs.send_message(QueueUrl=queue, MessageBody=body)
    (done,) = sqs.receive_message(QueueUrl=queue, MaxNumberOfMessages=1)["Messages"]
    sqs.delete_message(QueueUrl=queue, ReceiptHandle=done["ReceiptHandle"])
    sqs.receive_message(QueueUrl=queue, MaxNumberOfMessages=1, VisibilityTimeout=600)  # in flight
    secrets.create_secret(Name="page-tokens", SecretString="key-1")
    secrets.put_secret_value(SecretId="page-tokens", SecretString="key-2")
    _killed(engine)

    engine = start()
    try:
        s3, sqs, secrets = _clients(engine)
        assert sorted(o["Key"] for o in s3.list_objects_v2(Bucket=BUCKET)["Contents"]) == [
            "documents/r1/a",
            "replaced",
        ]
        body = s3.get_object(Bucket=BUCKET, Key="documents/r1/a")
        assert body["Body"].read().decode() == "本文" and body["ContentType"] == "text/plain"
        replaced = s3.get_object(Bucket=BUCKET, Key="replaced")
        assert replaced["Body"].read() == b"new" and replaced["Metadata"] == {"kept": "yes"}
        queue = sqs.create_queue(QueueName="parked")["QueueUrl"]  # as the cloud's provisioning does
        left = sqs.receive_message(QueueUrl=queue, MaxNumberOfMessages=10)["Messages"]
        assert sorted(message["Body"] for message in left) == sorted(
            {"first", "second", "in flight"} - {done["Body"]}
        )
        assert secrets.get_secret_value(SecretId="page-tokens")["SecretString"] == "key-2"
    finally:
        engine.stop()
