"""Inside a worker, before the handler is imported: make the process look like Lambda's.

`enter()` reads the worker's runtime file (named by `TATAMI_RUNTIME`, removed from the environment so
the handler never sees it), puts on `sys.path` only the function's asset, its layers, the runtime's
boto3 and the standard library, forgets every module loaded from anywhere else (the local cloud's
own code included), drops import hooks of editable installs, and installs the IAM guard. A handler
that imports something outside its asset and layers then fails with `ModuleNotFoundError`, as in
Lambda. Standard library only.
"""

from __future__ import annotations

import importlib
import json
import os
import resource
import sys
from pathlib import Path
from typing import Any

from tatami.local.iam import guard

RUNTIME_ENV = "TATAMI_RUNTIME"


def enter() -> dict[str, Any]:
    """Apply the runtime file's import path and IAM settings to this process; returns the file's content."""
    config: dict[str, Any] = json.loads(Path(os.environ.pop(RUNTIME_ENV)).read_text())
    # Bytecode never lands in the asset, which the next `cdk deploy` zips (-I ignores
    # PYTHONDONTWRITEBYTECODE): it goes under the work folder's prefix, shared by the workers, or nowhere.
    sys.pycache_prefix = config.get("pycache_prefix")
    sys.dont_write_bytecode = sys.pycache_prefix is None
    stdlib = _stdlib_paths()
    sys.path[:] = [*config["sys_path"], *stdlib]
    sys.meta_path[:] = [finder for finder in sys.meta_path if _is_standard(finder)]
    sys.path_importer_cache.clear()
    importlib.invalidate_caches()
    _forget_modules([*config["sys_path"], *stdlib])
    guard.install(config.get("iam") or {})
    return config


def _stdlib_paths() -> list[str]:
    """The interpreter's own library folders (its zip, lib/python3.X, lib-dynload), no site-packages."""
    return [p for p in sys.path if p.startswith(sys.base_prefix) and "site-packages" not in p]


def _is_standard(finder: Any) -> bool:
    module = getattr(type(finder), "__module__", "") if not isinstance(finder, type) else finder.__module__
    return module.startswith(("_frozen_importlib", "importlib"))


def _forget_modules(roots: list[str]) -> None:
    """Drop from sys.modules what was not loaded from `roots` (builtins and __main__ stay)."""
    prefixes = tuple(os.path.realpath(root) + os.sep for root in roots)
    for name, module in list(sys.modules.items()):
        if name == "__main__":
            continue
        locations = [getattr(module, "__file__", None), *list(getattr(module, "__path__", None) or [])]
        locations = [os.path.realpath(str(location)) for location in locations if location]
        if locations and not all(location.startswith(prefixes) for location in locations):
            del sys.modules[name]


def max_memory_mb() -> int:
    """The process's peak resident memory, as Lambda's REPORT line counts it ("Max Memory Used").

    Linux's VmHWM belongs to the program's address space, so it starts afresh at exec; ru_maxrss
    would also count the parent's memory at the fork.
    """
    try:
        with open("/proc/self/status", encoding="ascii") as status:
            line = next(line for line in status if line.startswith("VmHWM:"))
        return int(line.split()[1]) // 1024
    except (OSError, StopIteration):
        return int(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss // 1024)
