"""tatami/local/events/stream_records.py: the record shape Lambda hands a handler."""

from datetime import UTC, datetime

from tatami.local.events.stream_records import TTL_IDENTITY, aws_stream_arn, lambda_record


def test_lambda_record_shape_with_binary_and_time() -> None:
    raw = {
        "eventID": "1",
        "eventName": "INSERT",
        "eventSource": "aws:dynamodb",
        "awsRegion": "ddblocal",
        "dynamodb": {
            "ApproximateCreationDateTime": datetime(2026, 1, 2, tzinfo=UTC),
            "Keys": {"pk": {"B": b"\x00\xff"}},
            "NewImage": {
                "pk": {"B": b"\x00\xff"},
                "m": {"M": {"s": {"BS": [b"a"]}}},
                "n": {"N": "1.5"},
                "l": {"L": [{"B": b"b"}]},
            },
            "SequenceNumber": "1",
            "SizeBytes": 10,
            "StreamViewType": "NEW_AND_OLD_IMAGES",
        },
    }
    converted = lambda_record(raw, "arn:aws:dynamodb:us-east-1:000000000000:table/T/stream/x")
    stream = converted["dynamodb"]
    assert stream["ApproximateCreationDateTime"] == int(datetime(2026, 1, 2, tzinfo=UTC).timestamp())
    assert stream["Keys"] == {"pk": {"B": "AP8="}}
    assert stream["NewImage"]["m"] == {"M": {"s": {"BS": ["YQ=="]}}}
    assert stream["NewImage"]["n"] == {"N": "1.5"}
    assert stream["NewImage"]["l"] == {"L": [{"B": "Yg=="}]}
    assert converted["awsRegion"] == "us-east-1"
    assert converted["eventSourceARN"].endswith("table/T/stream/x")
    assert "userIdentity" not in converted


def test_ttl_deletion_becomes_remove_by_the_dynamodb_service() -> None:
    raw = {"eventName": "UNKNOWN_TO_SDK_VERSION", "dynamodb": {"Keys": {"pk": {"S": "a"}}}}
    converted = lambda_record(raw, "arn")
    assert converted["eventName"] == "REMOVE"
    assert converted["userIdentity"] == TTL_IDENTITY


def test_stream_arn_gets_the_local_region_and_account() -> None:
    local = "arn:aws:dynamodb:ddblocal:000000000000:table/T/stream/2026-01-01T00:00:00.000"
    assert (
        aws_stream_arn(local)
        == "arn:aws:dynamodb:us-east-1:000000000000:table/T/stream/2026-01-01T00:00:00.000"
    )


def test_a_minute_floored_time_becomes_the_read_time_within_that_minute() -> None:
    minute = datetime(2026, 1, 2, 3, 4, tzinfo=UTC)
    raw = {"eventName": "INSERT", "dynamodb": {"ApproximateCreationDateTime": minute, "Keys": {}}}
    floored = int(minute.timestamp())
    read_soon = lambda_record(raw, "arn", read_at=floored + 34.6)
    read_late = lambda_record(raw, "arn", read_at=floored + 600)
    assert read_soon["dynamodb"]["ApproximateCreationDateTime"] == floored + 34
    assert read_late["dynamodb"]["ApproximateCreationDateTime"] == floored + 59  # still within its minute
