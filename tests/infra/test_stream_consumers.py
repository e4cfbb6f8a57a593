"""One stream-consumer shape: every stream mapping reports partial batch failures, bisects a failing
batch, retries a bounded number of times and parks what it gives up on (stream_consumer.py), and
every function it runs answers in `common.stream_batches`' (or the Z-index maintainer's) shape."""

from __future__ import annotations

from tests.support.synthesis import Synthesized

HANDLERS = {  # the handlers the stream mappings run
    "tatami_functions.counters.handler.rollup",
    "tatami_functions.replication.handler.handler",
    "tatami_functions.devices.handler.archive",
    "zindex.lambda_handler.handler",
}


def test_every_stream_mapping_has_the_one_shape(synthesized: Synthesized) -> None:
    functions = synthesized.resources("AWS::Lambda::Function")
    mappings = synthesized.resources("AWS::Lambda::EventSourceMapping")
    handlers = set()
    for logical_id, mapping in mappings.items():
        props = mapping["Properties"]
        assert props["FunctionResponseTypes"] == ["ReportBatchItemFailures"], logical_id
        assert props["BisectBatchOnFunctionError"] is True, logical_id
        assert 0 <= props["MaximumRetryAttempts"] <= 10, logical_id
        assert "OnFailure" in props["DestinationConfig"], logical_id
        handlers.add(
            functions[str(synthesized.invoked_function(props["FunctionName"]))]["Properties"]["Handler"]
        )
    assert handlers == HANDLERS
