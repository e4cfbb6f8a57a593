"""Each module's functions and methods: the names they refer to and the AWS calls they make, from source.

What a module holds, for `access.py` to walk from a handler: every function and method (its class, the
names it refers to, its AWS calls (`sdk_calls.py`), how it spells resources in dicts and keywords,
whether it names an index, and the resolver route it serves), the names its top-level code refers to,
its classes' bases, and its settings fields (`name: str = variable("VAR")`, `NAME_ENV = "VAR"`).
"""

from __future__ import annotations

import ast
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path

from tatami.doctor.decorators import Function, decorator_references, registered, route
from tatami.doctor.sdk_calls import (
    KEYS,
    SDK_CALLS,
    TRANSACTION_ITEMS,
    Call,
    called,
    calls_of,
    identifiers,
    spelled,
    transaction_call,
)


@dataclass
class Definition:
    name: str
    file: str  # its module's file name, for messages
    module: int  # its module, as the same source in every asset that ships it
    owner: str | None = None  # the class of a method
    references: set[str] = field(default_factory=set)
    constants: set[str] = field(default_factory=set)  # identifier-like strings (a settings field's name)
    calls: list[Call] = field(default_factory=list)
    keys: dict[str, tuple[set[str], set[str]]] = field(default_factory=dict)  # key -> (names, via)
    index_always: bool = False  # an `IndexName` in a dict literal: its Query/Scan read an index
    index_sometimes: bool = False  # `request["IndexName"] = ...` on some paths: the table or an index
    route: tuple[str, str] | None = None  # (METHOD, /path/{param}) of a resolver route
    registered: bool = False


@dataclass
class ModuleGraph:
    definitions: list[Definition] = field(default_factory=list)
    top_references: set[str] = field(default_factory=set)
    bases: dict[str, set[str]] = field(default_factory=dict)  # class -> the names of its bases
    fields: dict[str, set[str]] = field(default_factory=dict)  # settings field -> environment variables


def module_graph(path: Path) -> ModuleGraph:
    """The module at `path`; read once per source, as every function's asset ships `common` again."""
    return _graph(path.read_text(encoding="utf-8"), path.name)


@cache
def _graph(source: str, file: str) -> ModuleGraph:
    tree = ast.parse(source, filename=file)
    graph = ModuleGraph()
    wrappers = _wrappers(tree)
    for node in tree.body:
        _top_level(graph, node, (file, hash((source, file))), wrappers)
    return graph


def _top_level(
    graph: ModuleGraph,
    node: ast.stmt,
    where: tuple[str, int],
    wrappers: dict[str, str],
    owner: str | None = None,
) -> None:
    if isinstance(node, Function):
        graph.definitions.append(_definition(node, where, wrappers, owner))
        graph.top_references |= {n for d in node.decorator_list for n in decorator_references(d)}
    elif isinstance(node, ast.ClassDef):
        graph.bases[node.name] = {n for base in node.bases for n in identifiers(base)}
        graph.top_references |= {n for d in node.decorator_list for n in identifiers(d)}
        for child in node.body:
            _top_level(graph, child, where, wrappers, node.name)
    else:
        graph.top_references |= identifiers(node)
        _field(graph, node)


def _field(graph: ModuleGraph, node: ast.stmt) -> None:
    """`name: T = variable("VAR", ...)` (a settings field) or `NAME_ENV = "VAR"`: name -> VAR."""
    if (
        isinstance(node, ast.AnnAssign)
        and isinstance(node.target, ast.Name)
        and isinstance(node.value, ast.Call)
    ):
        value = node.value
        first = value.args[0] if value.args else None
        if (
            called(value.func) == "variable"
            and isinstance(first, ast.Constant)
            and isinstance(first.value, str)
        ):
            graph.fields.setdefault(node.target.id, set()).add(first.value)
    elif (
        isinstance(node, ast.Assign)
        and isinstance(node.value, ast.Constant)
        and isinstance(node.value.value, str)
    ):
        for target in (t for t in node.targets if isinstance(t, ast.Name)):
            graph.fields.setdefault(target.id, set()).add(node.value.value)


def _wrappers(tree: ast.Module) -> dict[str, str]:
    """Functions with a parameter defaulting to an SDK method name (`operation="query"`)."""
    found = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.FunctionDef):
            for default in [*node.args.defaults, *(d for d in node.args.kw_defaults if d is not None)]:
                if isinstance(default, ast.Constant) and default.value in SDK_CALLS:
                    found[node.name] = str(default.value)
    return found


def _definition(
    node: Function, where: tuple[str, int], wrappers: dict[str, str], owner: str | None
) -> Definition:
    definition = Definition(node.name, *where, owner, route=route(node), registered=registered(node))
    assigned = _assignments(node)
    body = [node.args, *node.body]  # its decorators run at import: they are the module's references
    for child in (c for part in body for c in ast.walk(part)):
        if isinstance(child, ast.Name):
            definition.references.add(child.id)
        elif isinstance(child, ast.Attribute):
            definition.references.add(child.attr)
        elif isinstance(child, ast.Constant) and isinstance(child.value, str) and child.value.isidentifier():
            definition.constants.add(child.value)
        elif isinstance(child, ast.Call):
            keywords = {k.arg: _local(k.value, assigned) for k in child.keywords if k.arg}
            for key in KEYS & set(keywords):
                _add_key(definition, key, keywords[key])
            definition.calls += calls_of(child, keywords, node, wrappers)
        elif isinstance(child, ast.Dict):
            _dict(definition, child, assigned)
        elif isinstance(child, ast.Assign):
            _subscript_keys(definition, child)
    return definition


def _assignments(node: Function) -> dict[str, ast.expr]:
    """Local name -> its value; a dict literal wins (`RequestItems=request` spells what it spells)."""
    assigned: dict[str, ast.expr] = {}
    for child in ast.walk(node):
        if isinstance(child, ast.Assign):
            pairs = [(t, child.value) for t in child.targets]
        elif isinstance(child, ast.AnnAssign) and child.value is not None:
            pairs = [(child.target, child.value)]
        else:
            continue
        for target, value in pairs:
            if isinstance(target, ast.Name) and (target.id not in assigned or isinstance(value, ast.Dict)):
                assigned[target.id] = value
    return assigned


def _dict(definition: Definition, node: ast.Dict, assigned: dict[str, ast.expr]) -> None:
    for key, value in zip(node.keys, node.values, strict=True):
        if not isinstance(key, ast.Constant) or not isinstance(key.value, str):
            continue
        if key.value == "IndexName":
            definition.index_always = True
        elif key.value in KEYS:
            _add_key(definition, key.value, value)
        elif key.value in TRANSACTION_ITEMS:
            definition.calls.append(transaction_call(key.value, _local(value, assigned)))


def _subscript_keys(definition: Definition, node: ast.Assign) -> None:
    for target in node.targets:
        if isinstance(target, ast.Subscript) and isinstance(target.slice, ast.Constant):
            if target.slice.value == "IndexName":
                definition.index_sometimes = True
            elif target.slice.value in KEYS:
                _add_key(definition, str(target.slice.value), node.value)


def _local(value: ast.expr, assigned: dict[str, ast.expr]) -> ast.expr:
    return assigned.get(value.id, value) if isinstance(value, ast.Name) else value


def _add_key(definition: Definition, key: str, value: ast.expr) -> None:
    hints, via = spelled([value])
    found = definition.keys.setdefault(key, (set(), set()))
    found[0].update(hints)
    found[1].update(via)
