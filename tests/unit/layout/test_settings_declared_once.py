"""Each environment variable a function reads is written once in the code: in its service's settings
declaration (`common.settings`), which the function reads and its construct writes from. Tests may
spell names to check them; lambdas/, infra/, tatami/ and the zorder layer may not spell them again."""

from __future__ import annotations

import importlib
import re
from pathlib import Path

from tatami_functions.common.settings import Settings

ROOT = Path(__file__).resolve().parents[3]
CODE = [ROOT / "lambdas", ROOT / "infra", ROOT / "tatami", ROOT / "layers" / "zorder" / "python"]
# the shared declarations; each service's is its settings.py
SHARED = ["tatami_functions.common.tokens", "tatami_functions.common.settings"]


def declarations() -> list[type[Settings]]:
    modules = [*SHARED]
    for path in sorted((ROOT / "lambdas").rglob("settings.py")):
        modules.append(".".join(path.relative_to(ROOT / "lambdas").with_suffix("").parts))
    for module in modules:
        importlib.import_module(module)
    found, pending = [], list(Settings.__subclasses__())
    while pending:
        declaration = pending.pop()
        pending.extend(declaration.__subclasses__())
        if declaration.__module__ in modules:
            found.append(declaration)
    return found


def sources() -> dict[Path, str]:
    files = [p for root in CODE for p in ([root] if root.is_file() else root.rglob("*.py"))]
    return {path: path.read_text(encoding="utf-8") for path in files if "__pycache__" not in path.parts}


def test_every_declared_variable_is_spelled_once_in_the_code() -> None:
    texts = sources()
    names = {name: declaration for declaration in declarations() for name in declaration.names()}
    assert len(names) > 20  # the shape of the walk: every service's declaration was found
    for name, declaration in names.items():
        quoted = re.compile(rf"[\"']{re.escape(name)}[\"']")
        places = [f"{path.relative_to(ROOT)}" for path, text in texts.items() for _ in quoted.finditer(text)]
        assert len(places) == 1, f"{name} ({declaration.__name__}) is spelled in {places}"
