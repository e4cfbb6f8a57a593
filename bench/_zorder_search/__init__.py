"""Parts of the Z-order benchmarks (a package, so `make bench` does not run them as programs).

The benchmarks run as scripts (bench/ is then first on ``sys.path``); importing this package puts the
repository, ``lambdas/`` and the zorder layer there too, so the services' own modules are measured.
"""

import os
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
os.environ.setdefault("JSII_SILENCE_WARNING_END_OF_LIFE_NODE_VERSION", "20")  # infra imports the CDK
os.environ.setdefault("POWERTOOLS_LOG_LEVEL", "WARNING")  # one log line per search page otherwise
sys.path[:0] = [str(REPO), str(REPO / "lambdas"), str(REPO / "layers" / "zorder" / "python")]
