"""What a function's decorators say: the resolver route it serves, whether a resolver calls it (an error
handler), and what they refer to at import time."""

from __future__ import annotations

import ast
import re

from tatami.doctor.sdk_calls import identifiers

_ROUTE_METHODS = {"get", "post", "put", "delete", "patch", "head", "options"}
_REGISTRATIONS = {"exception_handler", "not_found"}  # resolver decorators that make a function callable
Function = ast.FunctionDef | ast.AsyncFunctionDef


def decorator_references(decorator: ast.expr) -> set[str]:
    """What a decorator refers to; `@app.get(...)` refers to `app`, not to every method named `get`."""
    func = decorator.func if isinstance(decorator, ast.Call) else decorator
    found = identifiers(decorator)
    if isinstance(func, ast.Attribute) and func.attr in _ROUTE_METHODS | _REGISTRATIONS:
        found = identifiers(func.value) | {n for a in getattr(decorator, "args", []) for n in identifiers(a)}
    return found


def route(node: Function) -> tuple[str, str] | None:
    for decorator in node.decorator_list:
        if isinstance(decorator, ast.Call) and isinstance(decorator.func, ast.Attribute) and decorator.args:
            path = decorator.args[0]
            if decorator.func.attr in _ROUTE_METHODS and isinstance(path, ast.Constant):
                return decorator.func.attr.upper(), re.sub(r"<(\w+)>", r"{\1}", str(path.value))
    return None


def registered(node: Function) -> bool:
    return any(
        isinstance(d, ast.Call) and isinstance(d.func, ast.Attribute) and d.func.attr in _REGISTRATIONS
        for d in node.decorator_list
    )
