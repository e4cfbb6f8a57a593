"""Which tables the OLAP export takes: every table of the stack with point-in-time recovery.

Found in the stack itself, so there is no list to keep: a table's key is the name of the stack output
that names it, in snake case (`OrdersTableName` -> `orders`, see
`tatami_functions.olap.tables.table_key`). A table with point-in-time recovery but no such output
fails synthesis, naming it.
"""

from __future__ import annotations

from typing import Any

from aws_cdk import CfnOutput, Stack
from aws_cdk import aws_dynamodb as dynamodb

from tatami_functions.olap.tables import table_key


def exportable_tables(stack: Stack) -> dict[str, dynamodb.TableV2]:
    """Key -> every `TableV2` of `stack` with point-in-time recovery, by its `...TableName` output."""
    names = _table_name_outputs(stack)
    found = {}
    for table in (node for node in stack.node.find_all() if isinstance(node, dynamodb.TableV2)):
        if not has_point_in_time_recovery(table):
            continue
        logical_id = stack.get_logical_id(table.node.default_child)  # type: ignore[arg-type]
        if logical_id not in names:
            raise ValueError(f"table {table.node.path} has no `...TableName` stack output to name its export")
        found[table_key(names[logical_id])] = table
    return dict(sorted(found.items()))


def key_definitions(table: dynamodb.TableV2) -> list[dict[str, str]]:
    """The table's AttributeDefinitions (its key and index attributes) as the template writes them."""
    cfn: Any = table.node.default_child
    return [
        {"AttributeName": d["attributeName"], "AttributeType": d["attributeType"]}
        for d in Stack.of(table).resolve(cfn.attribute_definitions)
    ]


def has_point_in_time_recovery(table: dynamodb.TableV2) -> bool:
    """Whether every replica of `table` keeps point-in-time recovery (what exports need)."""
    replicas: Any = Stack.of(table).resolve(getattr(table.node.default_child, "replicas", None)) or []
    return bool(replicas) and all(
        (replica.get("pointInTimeRecoverySpecification") or {}).get("pointInTimeRecoveryEnabled") is True
        for replica in replicas
    )


def _table_name_outputs(stack: Stack) -> dict[str, str]:
    """Table logical id -> the key of the stack output whose value is its name (`Ref`).

    Table outputs are made in the stack's own scope, so an output's id is its key in the template.
    """
    names = {}
    for output in (node for node in stack.node.children if isinstance(node, CfnOutput)):
        key, value = output.node.id, stack.resolve(output.value)
        if key.endswith("TableName") and isinstance(value, dict) and "Ref" in value:
            names[value["Ref"]] = key
    return names
