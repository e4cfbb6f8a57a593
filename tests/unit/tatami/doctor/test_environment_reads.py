"""tatami/doctor/code.py: what a module reads from its environment, by name or through a `..._ENV`
constant; a constant alone (a name declared for others, as `zindex.status` does) is not a read."""

from __future__ import annotations

from pathlib import Path

from tatami.doctor.code import parse


def _reads(tmp_path: Path, source: str) -> tuple[set[str], set[str]]:
    path = tmp_path / "module.py"
    path.write_text(source)
    module = parse(path)
    resolve = lambda names: {module.env_constants.get(n, n) for n in names}  # noqa: E731
    return resolve(module.env_literals), resolve(module.env_optional)


def test_a_declared_constant_is_not_a_read(tmp_path: Path) -> None:
    assert _reads(tmp_path, 'BATCH_SIZE_ENV = "ZINDEX_BATCH_SIZE"\n') == (set(), set())


def test_reads_through_a_constant_are_required_or_optional_as_written(tmp_path: Path) -> None:
    source = (
        "import os\n"
        'A_ENV = "NEEDED"\nB_ENV = "ALSO_NEEDED"\nC_ENV = "OPTIONAL"\n'
        "os.environ[A_ENV]\nos.environ.get(B_ENV)\nos.environ.get(C_ENV, '100')\n"
        "os.environ['LITERAL']\n"
    )
    assert _reads(tmp_path, source) == ({"NEEDED", "ALSO_NEEDED", "LITERAL"}, {"OPTIONAL"})
