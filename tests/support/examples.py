"""The example apps under examples/, synthesized as their users would (`python app.py OUTDIR`)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
LISTINGS = EXAMPLES / "listings"


def synthesize_example(app_dir: Path, cdk_out: Path) -> Path:
    """Run the example's app.py from its own folder into `cdk_out`; a failure shows its stderr."""
    result = subprocess.run(
        [sys.executable, "app.py", str(cdk_out)], cwd=app_dir, capture_output=True, text=True, check=False
    )
    assert result.returncode == 0, result.stderr[-4000:]
    return cdk_out
