"""The console's files: its own page and modules (static/, beside this file) and the libraries it
uses, read from the registry packages `make install` puts in node_modules (package.json pins them).
Nothing is fetched from elsewhere: the page works on a machine with no network beyond loopback."""

from __future__ import annotations

from functools import cache
from pathlib import Path

from tatami.checkout import repo_root

STATIC = Path(__file__).with_name("static")
# URL under /console/vendor/ -> file under node_modules/ (the packages' own minified builds)
VENDOR = {
    "uPlot.iife.min.js": "uplot/dist/uPlot.iife.min.js",
    "uPlot.min.css": "uplot/dist/uPlot.min.css",
    "d3-array.min.js": "d3-array/dist/d3-array.min.js",
    "d3-geo.min.js": "d3-geo/dist/d3-geo.min.js",
    "topojson-client.min.js": "topojson-client/dist/topojson-client.min.js",
    "land-110m.json": "world-atlas/land-110m.json",
}


def find(path: str) -> Path | None:
    """The file behind a console path ("" is the page), or None: only known names, never a walk up."""
    if path in ("", "index.html"):
        return STATIC / "index.html"
    folder, _, name = path.partition("/")
    if folder == "vendor" and name in VENDOR:
        return node_modules() / VENDOR[name]
    if folder == "static" and name in {f.name for f in STATIC.iterdir() if f.is_file()}:
        return STATIC / name
    return None


@cache
def node_modules() -> Path:
    return repo_root() / "node_modules"
