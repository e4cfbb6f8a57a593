"""Where the CDK app finds its assets (absolute, so synth works from any working directory)."""

from __future__ import annotations

from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parent.parent
LAMBDAS_DIR = REPO_ROOT / "lambdas"
ZORDER_LAYER_DIR = REPO_ROOT / "layers" / "zorder"
POWERTOOLS_LAYER_DIR = REPO_ROOT / "layers" / "powertools" / "asset"  # built by `make install`
