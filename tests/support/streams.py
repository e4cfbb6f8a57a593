"""A DynamoDB table's stream read back as Lambda would deliver it (DynamoDB Local or the local cloud)."""

from __future__ import annotations

from typing import Any

from tatami.local.events.stream_records import aws_stream_arn, lambda_record


def stream_records(client: Any, streams: Any, table: str) -> list[dict[str, Any]]:
    """Every record of the table's stream so far (every shard from its start), shaped as Lambda
    hands them to a handler."""
    arn = client.describe_table(TableName=table)["Table"]["LatestStreamArn"]
    records: list[dict[str, Any]] = []
    for shard in streams.describe_stream(StreamArn=arn)["StreamDescription"]["Shards"]:
        iterator = streams.get_shard_iterator(
            StreamArn=arn, ShardId=shard["ShardId"], ShardIteratorType="TRIM_HORIZON"
        )["ShardIterator"]
        while iterator:
            response = streams.get_records(ShardIterator=iterator, Limit=1000)
            records += [lambda_record(raw, aws_stream_arn(arn)) for raw in response["Records"]]
            iterator = response.get("NextShardIterator") if response["Records"] else None
    return records
