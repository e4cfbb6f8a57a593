"""Seed 004's labs in the synthesized template: the invoices' inverted index, the employees' overloaded,
sparse and composite GSIs, the log file and its replica, and the routes each function serves."""

from __future__ import annotations

import pytest

from tatami.local.gateway.routes import read_routes
from tatami_functions import stack_outputs
from tests.support.synthesis import Synthesized, indexes, keys

HASH, RANGE = "HASH", "RANGE"


ALL = {"ProjectionType": "ALL"}


HOST_INDEX = {"ProjectionType": "INCLUDE", "NonKeyAttributes": ["bytessent", "requestid", "host"]}


EXPECTED = {
    stack_outputs.OUTPUT_INVOICES_TABLE: (
        [("PK", HASH), ("SK", RANGE)],
        {"GSI_1": ([("SK", HASH), ("PK", RANGE)], ALL)},  # the adjacency list, inverted
    ),
    stack_outputs.OUTPUT_EMPLOYEES_TABLE: (
        [("PK", HASH), ("SK", RANGE)],
        {
            "GSI_1": ([("GSI_1_PK", HASH), ("GSI_1_SK", RANGE)], ALL),
            "GSI_2": ([("is_manager", HASH), ("name", RANGE)], ALL),
            "GSI_3": ([("GSI_3_PK", HASH), ("GSI_3_SK", RANGE)], ALL),
        },
    ),
    stack_outputs.OUTPUT_LOGFILE_TABLE: ([("PK", HASH)], {"GSI_1": ([("GSI_1_PK", HASH)], HOST_INDEX)}),
    stack_outputs.OUTPUT_LOGFILE_REPLICA_TABLE: (
        [("PK", HASH)],
        {"GSI_1": ([("GSI_1_PK", HASH)], HOST_INDEX)},
    ),
}


@pytest.mark.parametrize("output_key", list(EXPECTED))
def test_keys_and_indexes_are_the_workshops(synthesized: Synthesized, output_key: str) -> None:
    properties = synthesized.table(output_key)
    table_keys, expected_indexes = EXPECTED[output_key]
    assert keys(properties["KeySchema"]) == table_keys
    assert indexes(properties) == expected_indexes
    (replica,) = properties["Replicas"]
    assert replica["PointInTimeRecoverySpecification"] == {"PointInTimeRecoveryEnabled": True}


def test_every_route_is_served_by_its_labs_function(synthesized: Synthesized) -> None:
    stack = synthesized.stack()
    served = {(r.method, r.resource_path): r.function_id or "" for r in read_routes(stack)}
    expected = {
        "InvoicesLabFunction": [
            *(f"{m} /invoices/{{id}}" for m in ("GET", "PUT", "DELETE")),
            "GET /customers/{id}/invoices",
            "GET /bills/{id}",
        ],
        "EmployeesLabFunction": [
            "GET /employees",
            "GET /employees/managers",
            *(f"{m} /employees/{{id}}" for m in ("GET", "PUT", "DELETE")),
        ],
    }
    for function, routes in expected.items():
        for route in routes:
            method, path = route.split(" ")
            assert served[(method, path)].startswith(function), route
