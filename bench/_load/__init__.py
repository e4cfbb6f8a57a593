"""The load benchmark's locustfile (run by bench/load.py in its own process: locust's gevent)."""
