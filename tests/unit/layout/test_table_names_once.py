"""Each GSI is named once in the code: in its service's table declaration (`common.tables`), which the
repository queries by and the construct builds the table from. Tests may spell names to check them;
lambdas/, infra/, tatami/ and the zorder layer may not spell them again."""

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
    names = {index.name: table for table, schema in declared_tables().items() for index in schema.indexes}
    for name, table in names.items():
        quoted = re.compile(rf"[\"']{re.escape(name)}[\"']")
        places = [f"{path.relative_to(ROOT)}" for path, text in texts.items() for _ in quoted.finditer(text)]
        assert len(places) == 1, f"{name} ({table}) is spelled in {places}"
