"""What a function's code calls, on which of the resources its environment names, found statically.

Which code runs: what is reachable, through the handler's import closure (its asset and layers), from
the handler, every module's top-level code, the resolver's error handlers and, behind the API, the
routes the gateway sends to this function (two functions built from one resolver split its routes).
A function is reached when its name is referred to; a method when its name is and its class (or a
subclass) is too. A name reaches every definition of that name, so the walk may find more than runs,
never less of what the code spells out: code a function ships and never runs (a loader, a method only
tests call) reads as a call its role lacks, and belongs out of the function's package.

Which resource a call acts on: the names its resource argument is spelled with, mapped through the
settings fields of the closure to environment variables, and through the function's environment to
the template's resources. A call spelled with no known field may act on any resource of its service
the function names ("one of"), so it never raises a false alarm; a call on no named resource at all
(Glue's catalog) is checked by action alone. Calls made out of sight (by a library, or by AWS with
the caller's rights) are listed in `sdk_calls.py`.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from typing import Any

from tatami.doctor.callgraph import Definition, ModuleGraph, module_graph
from tatami.doctor.code import closure, module_file
from tatami.doctor.sdk_calls import RESOURCE_KEYS, Call
from tatami.local.template.assembly import Assembly, FunctionSpec, target_id

SERVICE_OF_TYPE = {
    "AWS::DynamoDB::GlobalTable": "dynamodb",
    "AWS::DynamoDB::Table": "dynamodb",
    "AWS::SQS::Queue": "sqs",
    "AWS::S3::Bucket": "s3",
    "AWS::SecretsManager::Secret": "secretsmanager",
}
_CLASS_ENTRIES = ("__init__", "__post_init__", "__call__", "__enter__", "__exit__")


@dataclass(frozen=True)
class Access:
    """One call of the code: `resources` are the logical ids it may act on (empty: none is named)."""

    service: str
    action: str
    resources: tuple[str, ...]
    label: str  # how the code names them: "CountersShards... (COUNTER_SHARDS_TABLE_NAME)"
    index: bool | None  # DynamoDB Query/Scan: on an index (True), the table (False), either (None)
    where: str

    @property
    def iam_action(self) -> str:
        return f"{self.service}:{self.action}"


def named_resources(assembly: Assembly, spec: FunctionSpec) -> dict[str, list[tuple[str, str]]]:
    """Variable -> [(logical id, service)] of every table, queue, bucket or secret its value names
    (a `Ref`/`GetAtt` anywhere in it: a JSON declaration or a map of tables names several)."""
    resources = {k: v for stack in assembly.stacks for k, v in stack.template.get("Resources", {}).items()}
    named: dict[str, list[tuple[str, str]]] = {}
    for variable, value in spec.environment.items():
        for logical_id in sorted(set(_references(value))):
            service = SERVICE_OF_TYPE.get(resources.get(logical_id, {}).get("Type", ""))
            if service:
                named.setdefault(variable, []).append((logical_id, service))
    return named


def _references(value: Any) -> Iterator[str]:
    found = target_id(value) or target_id(value, "Arn")
    if found:
        yield found
    elif isinstance(value, dict):
        for part in value.values():
            yield from _references(part)
    elif isinstance(value, list):
        for part in value:
            yield from _references(part)


def function_access(assembly: Assembly, spec: FunctionSpec, routes: set[tuple[str, str]]) -> list[Access]:
    """Every call the function's reachable code makes, with the resources it may act on."""
    roots = [spec.code_dir, *(folder / "python" for folder in spec.layer_dirs)]
    module, _, entry = spec.handler.rpartition(".")
    modules = closure(module, roots)
    graphs = {m.path: module_graph(m.path) for m in modules}
    fields: dict[str, set[str]] = defaultdict(set)
    for graph in graphs.values():
        for name, variables in graph.fields.items():
            fields[name] |= variables
    named = named_resources(assembly, spec)
    definitions = reachable(graphs, module_file(module, roots), entry, routes)
    by_name = _by_name(graphs.values())
    return [
        _access(call, definition, by_name, fields, named)
        for definition in definitions
        for call in definition.calls
        if call.own_method not in by_name
    ]


def reachable(
    graphs: dict[Any, ModuleGraph], entry_file: Any, entry: str, routes: set[tuple[str, str]]
) -> list[Definition]:
    """The definitions the handler may run: a function when its name is referred to, a method when
    its name is and its class (or a subclass) is too; until nothing more is found."""
    everything = [d for graph in graphs.values() for d in graph.definitions]
    bases = {name: found for graph in graphs.values() for name, found in graph.bases.items()}
    entry_graph = graphs.get(entry_file)
    reached = [d for d in (entry_graph.definitions if entry_graph else []) if d.name == entry and not d.owner]
    reached += [d for d in everything if d.registered or (d.route is not None and d.route in routes)]
    names = {name for graph in graphs.values() for name in graph.top_references}
    names |= {name for d in reached for name in d.references}
    reached_ids = {id(d) for d in reached}  # by identity: equal definitions may sit in two modules
    while True:
        live = _live_classes(names, bases)
        found = [
            d
            for d in everything
            if d.route is None
            and id(d) not in reached_ids
            and ((d.owner is None and d.name in names) or (d.owner in live and _runs(d, names)))
        ]
        if not found:
            return reached
        reached += found
        reached_ids |= {id(d) for d in found}
        names |= {name for d in found for name in d.references}


def _runs(method: Definition, names: set[str]) -> bool:
    return method.name in names or method.name in _CLASS_ENTRIES


def _live_classes(names: set[str], bases: dict[str, set[str]]) -> set[str]:
    """Classes referred to, and every class they derive from (their methods run on their instances)."""
    live = {name for name in names if name in bases}
    pending = list(live)
    while pending:
        for base in bases.get(pending.pop(), set()):
            if base not in live:
                live.add(base)
                pending.append(base)
    return live


def _by_name(graphs: Iterable[ModuleGraph]) -> dict[str, list[Definition]]:
    """Definitions by name, for a wrapper or a function a resource is spelled with."""
    by_name: dict[str, list[Definition]] = defaultdict(list)
    for graph in graphs:
        for definition in graph.definitions:
            by_name[definition.name].append(definition)
    return by_name


def _access(
    call: Call,
    definition: Definition,
    by_name: dict[str, list[Definition]],
    fields: dict[str, set[str]],
    named: dict[str, list[tuple[str, str]]],
) -> Access:
    hints, via = set(call.hints), set(call.via)
    keys = (*RESOURCE_KEYS.get(call.service, ()), "S3Bucket", "table_name")
    for source in [[definition], _named(by_name, call.callee, definition)]:
        if hints or via:
            break
        for other in source:
            for key in keys:
                hints |= other.keys.get(key, (set(), set()))[0]
                via |= other.keys.get(key, (set(), set()))[1]
    for called in via:
        for other in _named(by_name, called, definition):
            hints |= other.references | other.constants
    variables = {v for hint in hints for v in fields.get(hint, {hint})} & set(named)
    of_service = {v: [i for i, s in named[v] if s == call.service] for v in named}
    chosen = {v for v in variables if of_service[v]} or {v for v in of_service if of_service[v]}
    pairs = sorted({(i, v) for v in chosen for i in of_service[v]})
    return Access(
        call.service,
        call.action,
        tuple(sorted({i for i, _ in pairs})),
        " or ".join(f"{i} ({v})" for i, v in pairs),
        _index(call, definition),
        f"{definition.file}:{call.line}",
    )


def _named(by_name: dict[str, list[Definition]], name: str | None, near: Definition) -> list[Definition]:
    """The definitions `name` may mean from `near`: those of its own module if it has one."""
    found = by_name.get(name or "", [])
    return [d for d in found if d.module == near.module] or found


def _index(call: Call, definition: Definition) -> bool | None:
    if call.service != "dynamodb" or call.action not in ("Query", "Scan"):
        return False
    if call.index:
        return True
    if definition.index_sometimes:
        return None
    return definition.index_always
