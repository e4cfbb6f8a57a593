"""Each GSI is named once in the code: in its service's table declaration (`common.tables`), which the
repository queries by and the construct builds the table from. Tests may spell names to check them;
lambdas/, infra/, tatami/ and the zorder layer may not spell them again. Services whose tables share a
name (seed 004's labs call the first GSI of several tables `GSI_1`) spell it once each, in their table.py."""

from __future__ import annotations

import importlib
import re

from tatami_functions.common.tables import TableSchema
from tests.unit.layout.test_settings_declared_once import ROOT, sources


def declared_tables() -> dict[str, TableSchema]:
    """Every table a service declares, as `<module>.<NAME>`."""
    found: dict[str, TableSchema] = {}
    for path in sorted((ROOT / "lambdas" / "tatami_functions").glob("*/table.py")):
        module = importlib.import_module(".".join(path.relative_to(ROOT / "lambdas").with_suffix("").parts))
        found |= {f"{module.__name__}.{k}": v for k, v in vars(module).items() if isinstance(v, TableSchema)}
    return found


def test_every_gsi_name_is_spelled_once_in_the_code() -> None:
    texts = sources()
    declared_in: dict[str, set[str]] = {}  # GSI name -> the table.py files declaring a table with it
    for table, schema in declared_tables().items():
        module = table.rpartition(".")[0]
        path = ROOT / "lambdas" / f"{module.replace('.', '/')}.py"
        for index in schema.indexes:
            declared_in.setdefault(index.name, set()).add(f"{path.relative_to(ROOT)}")
    assert len(declared_in) >= 15  # the shape of the walk: every service's declarations were found
    for name, declarations in declared_in.items():
        quoted = re.compile(rf"[\"']{re.escape(name)}[\"']")
        places = [f"{path.relative_to(ROOT)}" for path, text in texts.items() for _ in quoted.finditer(text)]
        assert sorted(places) == sorted(declarations), f"{name} is spelled in {places}"
