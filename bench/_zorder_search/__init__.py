"""Parts of bench/zorder_search.py (a package, so `make bench` does not run them as programs)."""
