"""Which expressions of a function's source are AWS calls, and how each spells its resource.

A call is an SDK method on a client (`client.query(...)`), an operation named by a string the code
passes on (`self._call("get_item", ...)`, `get_paginator("list_objects_v2")`, a parameter defaulting to
one), a transaction item (`{"Put": {...}}`), what a library does for the code (Powertools' idempotency
layer reads and writes its table), or what AWS does with the caller's rights (an export's S3 writes).
Its resource is not known statically: a call keeps the names its resource argument is spelled with
(`TableName=self.tables.orders`: `self`, `tables`, `orders`), which `access.py` maps to resources.
"""

from __future__ import annotations

import ast
from dataclasses import dataclass

# boto3 method -> (IAM service prefix, IAM action), for the services the app uses.
SDK_CALLS = {
    "get_item": ("dynamodb", "GetItem"),
    "put_item": ("dynamodb", "PutItem"),
    "update_item": ("dynamodb", "UpdateItem"),
    "delete_item": ("dynamodb", "DeleteItem"),
    "query": ("dynamodb", "Query"),
    "scan": ("dynamodb", "Scan"),
    "batch_get_item": ("dynamodb", "BatchGetItem"),
    "batch_write_item": ("dynamodb", "BatchWriteItem"),
    "export_table_to_point_in_time": ("dynamodb", "ExportTableToPointInTime"),
    "describe_export": ("dynamodb", "DescribeExport"),
    "put_object": ("s3", "PutObject"),
    "get_object": ("s3", "GetObject"),
    "delete_object": ("s3", "DeleteObject"),
    "list_objects_v2": ("s3", "ListBucket"),
    "send_message": ("sqs", "SendMessage"),
    "get_secret": ("secretsmanager", "GetSecretValue"),  # Powertools' parameters.get_secret
    "get_secret_value": ("secretsmanager", "GetSecretValue"),
    "get_table": ("glue", "GetTable"),
    "update_table": ("glue", "UpdateTable"),
}
TRANSACTION_ITEMS = {"Put": "PutItem", "Update": "UpdateItem", "Delete": "DeleteItem"}
TRANSACTION_ITEMS |= {"ConditionCheck": "ConditionCheckItem"}
# Calls a library makes for the code: its constructor -> (the keyword naming the resource, actions).
LIBRARY_CALLS = {
    "DynamoDBPersistenceLayer": (
        "table_name",
        ("dynamodb", ("GetItem", "PutItem", "UpdateItem", "DeleteItem")),
    )
}
# What AWS does with the caller's rights: an export writes its files to S3 as the caller (the export guide).
IMPLIED = {
    "ExportTableToPointInTime": ("S3Bucket", "s3", ("AbortMultipartUpload", "PutObject", "PutObjectAcl"))
}
RESOURCE_KEYS = {"dynamodb": ("TableName", "TableArn", "RequestItems"), "s3": ("Bucket",)}
RESOURCE_KEYS |= {"sqs": ("QueueUrl",), "secretsmanager": ("SecretId",), "glue": ("DatabaseName",)}
KEYS = {key for keys in RESOURCE_KEYS.values() for key in keys} | {"S3Bucket", "table_name"}
# Receivers that are clients (`self.client`, `dynamodb()`, `glue`): `x.scan(...)` on anything else may be
# the code's own method of that name (the engine's `repository.scan`), counted where that calls AWS.
_CLIENTS = ("client", "dynamodb", "s3", "sqs", "glue", "secretsmanager", "parameters")


@dataclass(frozen=True)
class Call:
    """One call site: `hints`/`via` spell its resource (`via`: the functions called to get it)."""

    service: str
    action: str
    line: int
    hints: frozenset[str] = frozenset()
    via: frozenset[str] = frozenset()
    index: bool = False  # DynamoDB: an `IndexName=` argument (else its definition says)
    callee: str | None = None  # the wrapper it goes through (`_call`), whose arguments may name it
    own_method: str | None = None  # `repository.scan(...)` on no client: the code's own `scan`, if any


def calls_of(
    node: ast.Call,
    keywords: dict[str, ast.expr],
    owner: ast.FunctionDef | ast.AsyncFunctionDef,
    wrappers: dict[str, str],
) -> list[Call]:
    """The AWS calls one call expression makes (`keywords`: its keyword arguments, locals resolved)."""
    name = called(node.func)
    if name in LIBRARY_CALLS:
        keyword, (service, actions) = LIBRARY_CALLS[name]
        hints, via = spelled([keywords[keyword]] if keyword in keywords else [])
        return [Call(service, action, node.lineno, hints, via) for action in actions]
    method, callee = _method(node, name, keywords, owner, wrappers)
    if method is None:
        return []
    service, action = SDK_CALLS[method]
    hints, via = spelled([keywords[k] for k in RESOURCE_KEYS[service] if k in keywords])
    receiver = ast.unparse(node.func.value) if isinstance(node.func, ast.Attribute) and callee is None else ""
    own = method if receiver and not any(word in receiver for word in _CLIENTS) else None
    found = [Call(service, action, node.lineno, hints, via, "IndexName" in keywords, callee, own)]
    if action in IMPLIED:
        keyword, implied_service, implied_actions = IMPLIED[action]
        implied = spelled([keywords[keyword]] if keyword in keywords else [])
        found += [Call(implied_service, a, node.lineno, *implied) for a in implied_actions]
    return found


def _method(
    node: ast.Call,
    name: str | None,
    keywords: dict[str, ast.expr],
    owner: ast.FunctionDef | ast.AsyncFunctionDef,
    wrappers: dict[str, str],
) -> tuple[str | None, str | None]:
    """The SDK method a call makes, and the wrapper it goes through (None when it is the SDK's own)."""
    if name in SDK_CALLS and isinstance(node.func, ast.Attribute):
        return name, None
    first = keywords.get("operation") or (node.args[0] if node.args else None)
    if isinstance(first, ast.Constant) and first.value in SDK_CALLS and not (name or "A")[0].isupper():
        return str(first.value), name  # `self._call("get_item", ...)`; `Plan("scan", ...)` is a class
    if isinstance(first, ast.Name):  # `self._call(operation, ...)` with `operation: str = "query"`
        arguments = [a.arg for a in owner.args.args]
        defaults = dict(zip(arguments[::-1], owner.args.defaults[::-1], strict=False))
        default = defaults.get(first.id)
        if isinstance(default, ast.Constant) and default.value in SDK_CALLS:
            return str(default.value), name
    if name in wrappers and name != owner.name:
        return wrappers[name], name
    return None, None


def transaction_call(kind: str, item: ast.expr) -> Call:
    """`{"Put": item}` in a transaction's items: PutItem on the table `item`'s TableName spells."""
    parts = [item]
    if isinstance(item, ast.Dict):
        parts = [
            v
            for k, v in zip(item.keys, item.values, strict=True)
            if isinstance(k, ast.Constant) and k.value == "TableName"
        ]
    hints, via = spelled(parts)
    return Call("dynamodb", TRANSACTION_ITEMS[kind], item.lineno, hints, via)


def spelled(expressions: list[ast.expr]) -> tuple[frozenset[str], frozenset[str]]:
    """The names and string constants the expressions use, and the functions they call (looked into
    later). A dict (RequestItems) is spelled by its keys."""
    hints: set[str] = set()
    via: set[str] = set()
    for expression in expressions:
        parts = (
            [k for k in expression.keys if k is not None]
            if isinstance(expression, ast.Dict)
            else [expression]
        )
        for part in parts:
            hints |= names(part)
            via |= {name for c in ast.walk(part) if isinstance(c, ast.Call) if (name := called(c.func))}
    return frozenset(hints), frozenset(via)


def identifiers(node: ast.AST) -> set[str]:
    """The names and attribute names below `node`: what it may refer to."""
    found = set()
    for child in ast.walk(node):
        if isinstance(child, ast.Name):
            found.add(child.id)
        elif isinstance(child, ast.Attribute):
            found.add(child.attr)
    return found


def names(node: ast.AST) -> set[str]:
    """Identifiers and identifier-like string constants below `node`: how it spells a resource."""
    return identifiers(node) | {
        c.value
        for c in ast.walk(node)
        if isinstance(c, ast.Constant) and isinstance(c.value, str) and c.value.isidentifier()
    }


def called(func: ast.expr) -> str | None:
    """The name a call calls: `f(...)` and `m.f(...)` are both "f"."""
    if isinstance(func, ast.Name):
        return func.id
    return func.attr if isinstance(func, ast.Attribute) else None
