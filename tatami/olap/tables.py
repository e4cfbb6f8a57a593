"""The tables a deployment exports, as SQL sees them: the stack's list, each table's own definition.

The stack output names every exported table (key -> ARN); a table whose service declares its items
has its columns from `tatami_functions.olap.tables.DECLARED`, any other its key and index
attributes, read from the table itself (DescribeTable), so the CLI needs no list of its own.
"""

from __future__ import annotations

import json

from tatami.target import Target
from tatami_functions.olap.tables import DECLARED, ExportedTable, exported_table
from tatami_functions.stack_outputs import OUTPUT_OLAP_TABLES


def exported_tables(target: Target) -> dict[str, ExportedTable]:
    """Key -> the table as SQL sees it, for every table `target`'s stack exports.

    For example (not run as a doctest)::

        sorted(exported_tables(local_target()))[:3]
        # -> ['businesses', 'campaign_users', 'carts']
    """
    tables, dynamodb = {}, None
    for key, arn in json.loads(target.output(OUTPUT_OLAP_TABLES)).items():
        if key in DECLARED:
            tables[key] = DECLARED[key]
            continue
        dynamodb = dynamodb or target.client("dynamodb")
        described = dynamodb.describe_table(TableName=arn.rsplit("/", 1)[-1])["Table"]
        tables[key] = exported_table(key, described["AttributeDefinitions"])
    return tables
