"""Compiled assets (infra/constructs/compiled_asset.py): a source that does not compile stops synthesis
with an error naming its file and line (not a fall-back to Docker), and the asset's hash follows the
Python that compiles its bytecode, as its bytes do.
"""

from __future__ import annotations

from pathlib import Path

import aws_cdk as cdk
import pytest
from aws_cdk import aws_lambda as lambda_

from infra.constructs import compiled_asset
from infra.constructs.compiled_asset import SourceSyntaxError, compiled_layer_code, sources_hash
from infra.constructs.service_function import import_closure

BROKEN = "VALUE = 1\n\ndef broken(:\n    return VALUE\n"


def _layer(tmp_path: Path, module: str) -> Path:
    """A layer folder whose `python/pkg/` holds a good module and `module`."""
    package = tmp_path / "layer" / "python" / "pkg"
    package.mkdir(parents=True)
    (package / "__init__.py").write_text("")
    (package / "good.py").write_text("VALUE = 1\n")
    (package / "other.py").write_text(module)
    return tmp_path / "layer"


def _synthesized_layer(layer: Path, outdir: Path) -> str:
    """Synthesize a stack of one layer built from `layer` into `outdir`; its asset's key (the hash)."""
    app = cdk.App(outdir=str(outdir))
    stack = cdk.Stack(app, "T")
    lambda_.LayerVersion(stack, "Layer", code=compiled_layer_code(layer))
    template = app.synth().get_stack_by_name("T").template
    (resource,) = [r for r in template["Resources"].values() if r["Type"] == "AWS::Lambda::LayerVersion"]
    return str(resource["Properties"]["Content"]["S3Key"])


def test_a_layer_source_with_a_syntax_error_names_its_file_and_line(tmp_path: Path) -> None:
    layer = _layer(tmp_path, BROKEN)
    with pytest.raises(RuntimeError) as raised:  # jsii's, carrying the bundler's message
        _synthesized_layer(layer, tmp_path / "out")
    message = str(raised.value)
    assert f"{layer / 'python' / 'pkg' / 'other.py'}, line 3: invalid syntax: def broken(:" in message
    assert "docker" not in message.lower()


def test_a_function_source_with_a_syntax_error_names_its_file_and_line(tmp_path: Path) -> None:
    layer = _layer(tmp_path, "from pkg import good\n\nif True\n    pass\n")
    with pytest.raises(SourceSyntaxError) as raised:
        import_closure(["pkg.other"], root=layer / "python")
    assert str(raised.value).startswith(f"{layer / 'python' / 'pkg' / 'other.py'}, line 3: ")
    assert str(raised.value).endswith(": if True")


def test_a_good_layer_ships_its_bytecode(tmp_path: Path) -> None:
    layer = _layer(tmp_path, "from pkg.good import VALUE\n")
    _synthesized_layer(layer, tmp_path / "out")
    compiled = list((tmp_path / "out").glob("asset.*/python/pkg/__pycache__/other.*.pyc"))
    assert len(compiled) == 1


def test_the_asset_hash_changes_with_the_python_that_compiles_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    layer = _layer(tmp_path, "from pkg.good import VALUE\n")
    assert sources_hash(layer, ["python"], "cpython-313 f30d0d0a") != sources_hash(
        layer, ["python"], "cpython-314 2b0e0d0a"
    )
    assert sources_hash(layer, ["python"], "cpython-313 f30d0d0a") == sources_hash(
        layer, ["python"], "cpython-313 f30d0d0a"
    )
    this_python = _synthesized_layer(layer, tmp_path / "a")
    monkeypatch.setattr(compiled_asset, "bytecode_format", lambda: "cpython-314 2b0e0d0a")
    assert _synthesized_layer(layer, tmp_path / "b") != this_python
