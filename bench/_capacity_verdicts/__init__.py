"""Parts of the capacity verdicts benchmark (a package, so `make bench` does not run them as programs).

Importing it puts the repository and `lambdas/` on ``sys.path``, so the model is the checkout's.
"""

import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
sys.path[:0] = [str(REPO), str(REPO / "lambdas")]
