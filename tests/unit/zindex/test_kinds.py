"""Index kinds: the engine outside ``zindex.kinds`` never asks which kind it holds, and a declaration
round-trips through its JSON (every field, every encoding, indexes of every kind) as the construct
puts it into the functions' environment."""

from __future__ import annotations

import ast
from pathlib import Path
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

import zindex
from zindex import Attribute, IndexedTable, SortedIndex, ZIndex
from zindex.kinds import KINDS
from zindex.spec import Index
from zorder import Bool, Encoding, Fixed, Float, Int, Text, Timestamp, UInt
from zorder.encodings import ENCODINGS

PACKAGE = Path(zindex.__file__).parent
KIND_CLASSES = {cls.__name__ for cls in KINDS.values()} | {"Index"}
KIND_TAGS = set(KINDS)


def _isinstance_on_a_kind(node: ast.AST) -> bool:
    if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "isinstance"):
        return False
    return bool({n.id for n in ast.walk(node.args[1]) if isinstance(n, ast.Name)} & KIND_CLASSES)


def _compares_kinds(node: ast.AST) -> bool:
    if not isinstance(node, ast.Compare):
        return False
    sides = [node.left, *node.comparators]
    texts = {s.value for s in sides if isinstance(s, ast.Constant) and isinstance(s.value, str)}
    kind_attribute = any(isinstance(s, ast.Attribute) and s.attr == "kind" for s in sides)
    return bool(texts & KIND_TAGS) or any(t.startswith("z-") for t in texts) or kind_attribute


def _prefix_or_kind_key(node: ast.AST) -> bool:
    if isinstance(node, ast.Subscript):
        return isinstance(node.slice, ast.Constant) and node.slice.value == "kind"
    if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)):
        return False
    args = [a.value for a in node.args if isinstance(a, ast.Constant) and isinstance(a.value, str)]
    prefix = any(a and any(tag.startswith(a.rstrip("-:")) for tag in KIND_TAGS) for a in args)
    return (node.func.attr == "startswith" and prefix) or (
        node.func.attr in ("get", "pop") and "kind" in args
    )


REGISTRY = "index_from_dict"  # the one function that reads the kind tag (zindex.spec), through KINDS


def _kind_dispatch(source: str) -> list[int]:
    """Lines that ask which kind an index or plan is: isinstance on a kind class, a comparison with a
    kind tag (or a ``z-`` plan kind) or of a ``.kind``, ``startswith`` a kind's prefix, the ``kind``
    key of a JSON document (but in the registry's own function)."""
    checks = (_isinstance_on_a_kind, _compares_kinds, _prefix_or_kind_key)
    tree = ast.parse(source)
    registry = {
        id(node)
        for function in ast.walk(tree)
        if isinstance(function, ast.FunctionDef) and function.name == REGISTRY
        for node in ast.walk(function)
    }
    return sorted(
        getattr(node, "lineno", 0)
        for node in ast.walk(tree)
        if id(node) not in registry and any(c(node) for c in checks)
    )


def test_outside_the_kinds_nothing_asks_which_kind_an_index_is() -> None:
    modules = [p for p in sorted(PACKAGE.rglob("*.py")) if "kinds" not in p.relative_to(PACKAGE).parts]
    assert len(modules) > 15
    found = {str(p.relative_to(PACKAGE)): _kind_dispatch(p.read_text(encoding="utf-8")) for p in modules}
    assert {path: lines for path, lines in found.items() if lines} == {}


def test_the_check_finds_what_it_looks_for() -> None:
    sample = (
        "def f(index, plan, data):\n"
        "    a = isinstance(index, ZIndex | SortedIndex)\n"
        "    b = plan.kind.startswith('z-')\n"
        "    c = index.kind == 'sorted'\n"
        "    d = data.get('kind')\n"
        "    return a, b, c, d, data['kind']\n"
    )
    assert _kind_dispatch(sample) == [2, 3, 4, 5, 6]
    assert _kind_dispatch("def g(plan):\n    return plan.family, isinstance(plan, dict)\n") == []
    assert _kind_dispatch("def index_from_dict(data):\n    return KINDS[data.pop('kind')]\n") == []


def test_every_kind_is_registered_under_its_tag() -> None:
    assert all(issubclass(cls, Index) and cls.kind == tag for tag, cls in KINDS.items())


# --- declarations round-trip through JSON ------------------------------------------------------------
names = st.text("abcdefghijklmnopqrstuvwxyz_", min_size=1, max_size=8)
millis = st.integers(-(2**41), 2**41 - 1)


def _encoding_and_values(kind: str) -> st.SearchStrategy[tuple[Encoding, st.SearchStrategy[Any]]]:
    """An encoding of ``kind`` with a strategy for values of its type (a domain's ends)."""
    if kind == "uint":
        return st.integers(1, 64).map(lambda b: (UInt(b), st.integers(0, 2**b - 1)))
    if kind == "int":
        return st.integers(1, 64).map(lambda b: (Int(b), st.integers(-(2 ** (b - 1)), 2 ** (b - 1) - 1)))
    if kind == "float":
        return st.sampled_from([32, 64]).map(
            lambda b: (Float(b), st.floats(allow_nan=False, allow_infinity=False))
        )
    if kind == "fixed":
        bounds = st.tuples(st.integers(-1000, 1000), st.integers(1, 1000))
        return st.tuples(bounds, st.integers(1, 53), st.booleans()).map(
            lambda t: (
                Fixed(float(t[0][0]) if t[2] else t[0][0], t[0][0] + t[0][1], t[1]),
                st.floats(t[0][0], t[0][0] + t[0][1]),
            )
        )
    if kind == "text":
        return st.integers(1, 8).map(lambda n: (Text(n), st.text(max_size=10)))
    if kind == "timestamp":
        return st.integers(43, 64).map(
            lambda b: (Timestamp(b), st.one_of(millis, st.just("2024-05-01T00:00:00+00:00")))
        )
    if kind == "bool":
        return st.just((Bool(), st.booleans()))
    raise AssertionError(f"no strategy for the {kind!r} encoding: add one")


encodings = st.sampled_from(sorted(ENCODINGS)).flatmap(_encoding_and_values)


def test_every_encoding_has_a_strategy() -> None:
    for kind in ENCODINGS:
        assert _encoding_and_values(kind) is not None


@st.composite
def attributes(draw: st.DrawFn, name: str) -> Attribute:
    encoding, values = draw(encodings)
    low, high = draw(st.one_of(st.none(), values)), draw(st.one_of(st.none(), values))
    return Attribute(name, encoding, (low, high), draw(st.booleans()))


@st.composite
def tables(draw: st.DrawFn) -> IndexedTable:
    used = draw(st.lists(names, min_size=1, max_size=4, unique=True))
    attrs = tuple(draw(attributes(n)) for n in used)
    written = iter(f"w{n}" for n in range(100))  # index key attributes, apart from the data
    indexes: list[Index] = []
    for n in range(draw(st.integers(0, 2))):
        over = tuple(draw(st.lists(st.sampled_from(used), min_size=1, max_size=3, unique=True)))
        own = tuple(
            (a, draw(encodings)[0]) for a in over if draw(st.booleans())
        )  # a bit budget of the index's own
        width = sum((dict(own).get(a) or next(x.encoding for x in attrs if x.name == a)).bits for a in over)
        bucket = draw(st.integers(0, min(16, width)))
        indexes.append(ZIndex(f"z{n}", over, bucket, next(written), next(written), own))
    for n in range(draw(st.integers(0 if indexes else 1, 2))):
        shards = draw(st.integers(1, 16))
        indexes.append(SortedIndex(f"s{n}", draw(st.sampled_from(used)), shards, next(written)))
    projection = tuple(draw(st.lists(st.sampled_from(["p", "q", *used]), max_size=3, unique=True)))
    return IndexedTable(
        draw(names), ("id", "sk")[: draw(st.integers(1, 2))], attrs, tuple(indexes), projection
    )


@settings(max_examples=200, deadline=None)
@given(tables())
def test_a_declaration_round_trips_through_json(table: IndexedTable) -> None:
    again = IndexedTable.from_json(table.to_json())
    assert again == table
    assert again.to_json() == table.to_json()
    for index in table.indexes:
        assert again.index(index.name).key_bits(again) == index.key_bits(table)


def test_a_z_index_with_its_own_encodings_serialises() -> None:
    """The bug this file was written for: a per-index encoding made ``to_json`` raise TypeError."""
    table = IndexedTable(
        "T",
        ("id",),
        (Attribute("population", UInt(32), domain=(None, 2**20 - 1)),),
        (ZIndex("z", ("population",), 4, encodings=(("population", UInt(20)),)),),
    )
    again = IndexedTable.from_json(table.to_json())
    assert again == table and again.schema("z").bits == 20
