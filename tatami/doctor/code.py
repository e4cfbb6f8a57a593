"""What a function's code imports and reads from its environment, read from its source (its AWS calls:
`callgraph.py`).

Environment reads are a settings declaration's fields (`variable("NAME", ...)`, `common.settings`:
required without a default or with the empty default "", optional with any other, None included:
a function may be deployed without it), `os.environ[...]`/`.get(...)`, by the variable's name or by
a `..._ENV = "NAME"` constant (the zorder layer's own handler; the constant alone is a name, not a
read: `zindex.status` declares it for CDK apps, and its search side never reads it).

Static, from the asset and layer folders of `cdk.out` (never the project's source tree), so it sees
exactly what Lambda will load. Imports under `if TYPE_CHECKING:` and inside a `try` that catches
ImportError are optional and not followed.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path


@dataclass
class Module:
    """One source file: its imports (module names) and env vars (required, optional)."""

    path: Path
    imports: list[tuple[str, int]] = field(default_factory=list)  # (dotted name, line)
    optional_imports: set[str] = field(default_factory=set)
    env_constants: dict[str, str] = field(default_factory=dict)  # NAME_ENV -> "VARIABLE"
    env_literals: set[str] = field(default_factory=set)
    env_optional: set[str] = field(default_factory=set)  # names read with a non-empty default


@cache
def parse(path: Path) -> Module:
    module = Module(path)
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    _Visitor(module).visit(tree)
    return module


class _Visitor(ast.NodeVisitor):
    def __init__(self, module: Module) -> None:
        self.module = module
        self.optional = 0

    def visit_If(self, node: ast.If) -> None:
        guarded = "TYPE_CHECKING" in ast.unparse(node.test)
        self.optional += guarded
        for child in node.body:
            self.visit(child)
        self.optional -= guarded
        for child in node.orelse:
            self.visit(child)

    def visit_Try(self, node: ast.Try) -> None:
        guarded = any("ImportError" in ast.unparse(h.type) for h in node.handlers if h.type is not None)
        self.optional += guarded
        for child in node.body:
            self.visit(child)
        self.optional -= guarded
        rest: list[ast.AST] = [*node.handlers, *node.orelse, *node.finalbody]
        for other in rest:
            self.visit(other)

    def visit_Import(self, node: ast.Import) -> None:
        for alias in node.names:
            self._add(alias.name, node.lineno)

    def visit_ImportFrom(self, node: ast.ImportFrom) -> None:
        if node.level == 0 and node.module:
            self._add(node.module, node.lineno)
            for alias in node.names:
                self._add(f"{node.module}.{alias.name}", node.lineno, submodule=True)

    def _add(self, name: str, line: int, submodule: bool = False) -> None:
        if self.optional:
            self.module.optional_imports.add(name)
        elif submodule:
            self.module.optional_imports.add(name)  # `from a import b`: b may be a name, not a module
        else:
            self.module.imports.append((name, line))

    def visit_Assign(self, node: ast.Assign) -> None:
        value = node.value
        for target in node.targets:
            if (
                isinstance(target, ast.Name)
                and target.id.endswith("_ENV")
                and isinstance(value, ast.Constant)
            ):
                self.module.env_constants[target.id] = str(value.value)
        self.generic_visit(node)

    def visit_Call(self, node: ast.Call) -> None:
        func = node.func
        first = node.args[0] if node.args else None
        if _called(func) == "variable" and isinstance(first, ast.Constant) and isinstance(first.value, str):
            self._declared(first.value, node)
        if isinstance(func, ast.Attribute) and func.attr in ("get", "getenv") and node.args:
            self._env_read(node)
        self.generic_visit(node)

    def _declared(self, name: str, node: ast.Call) -> None:
        """A settings field: `variable(name, parse, default=..., dump=...)`."""
        default = next((k.value for k in node.keywords if k.arg == "default"), None)
        required = default is None or (isinstance(default, ast.Constant) and default.value == "")
        (self.module.env_literals if required else self.module.env_optional).add(name)

    def _env_read(self, node: ast.Call) -> None:
        first = node.args[0]
        name = first.value if isinstance(first, ast.Constant) and isinstance(first.value, str) else None
        name = name or (first.id if isinstance(first, ast.Name) and first.id.endswith("_ENV") else None)
        if name is None:
            return
        default = node.args[1] if len(node.args) > 1 else None
        if isinstance(default, ast.Constant) and default.value not in ("", None):
            self.module.env_optional.add(name)
        elif "environ" in ast.unparse(node.func):
            self.module.env_literals.add(name)

    def visit_Subscript(self, node: ast.Subscript) -> None:
        key = node.slice
        if "environ" in ast.unparse(node.value):
            if isinstance(key, ast.Constant):
                self.module.env_literals.add(str(key.value))
            elif isinstance(key, ast.Name) and key.id.endswith("_ENV"):
                self.module.env_literals.add(key.id)
        self.generic_visit(node)


def _called(func: ast.expr) -> str | None:
    """The name a call calls: `f(...)` and `m.f(...)` are both "f"."""
    if isinstance(func, ast.Name):
        return func.id
    return func.attr if isinstance(func, ast.Attribute) else None


def module_file(name: str, roots: Sequence[Path]) -> Path | None:
    """The file that `import name` loads from `roots` (a package's __init__.py or a module)."""
    for root in roots:
        if found := _module_file_in(root, name):
            return found
    return None


@cache  # every function's closure looks its layers' modules up again (an assembly is never rewritten)
def _module_file_in(root: Path, name: str) -> Path | None:
    folder = root.joinpath(*name.split("."))
    for candidate in (folder / "__init__.py", folder.with_suffix(".py")):
        if candidate.is_file():
            return candidate
    return None


def closure(handler_module: str, roots: Sequence[Path]) -> list[Module]:
    """The modules `handler_module` imports, transitively, from `roots` (the asset and its layers)."""
    seen: dict[Path, Module] = {}
    tried: set[str] = set()  # names looked up already (every module imports `typing` again)
    pending = [handler_module]
    while pending:
        name = pending.pop()
        for prefix in _prefixes(name):
            if prefix in tried:
                continue
            tried.add(prefix)
            path = module_file(prefix, roots)
            if path is None or path in seen:
                continue
            seen[path] = module = parse(path)
            pending.extend(imported for imported, _ in module.imports)
            pending.extend(module.optional_imports)
    return list(seen.values())


def _prefixes(name: str) -> Iterator[str]:
    parts = name.split(".")
    for end in range(1, len(parts) + 1):
        yield ".".join(parts[:end])
