"""What a server on loopback answers: its own Host names only, and no write from another web origin.

Listening on 127.0.0.1 keeps the network out, not the web pages the developer opens, which may send
requests to any loopback port:

- DNS rebinding: a page of `evil.example` whose name then resolves to 127.0.0.1 is, for the browser,
  of the same origin as the server, so it reads every answer. Its requests say `Host: evil.example`.
  So a server answers only its own loopback names: 127.0.0.1:PORT, localhost:PORT, [::1]:PORT.
- Cross-site request forgery: a page's form, or a no-cors `fetch`, POSTs to http://127.0.0.1:PORT
  with no preflight. The browser hides the answer, but the write is done. Browsers say where such a
  request comes from (`Origin`, and `Sec-Fetch-Site` in current ones), so a request that may change
  something (any method but GET, HEAD and OPTIONS) is refused unless it comes from the server's own
  origin. Clients that are not browsers (curl, the SDKs, tests) send neither header and pass.

The API gateway (and so the console mounted on it, and `tatami console`'s server) and the control
port apply it; request bodies are JSON only when their Content-Type says so (the functions' rule,
`tatami_functions.common.api`), which a form cannot.
"""

from __future__ import annotations

from collections.abc import Callable

__all__ = ["SAFE_METHODS", "loopback_hosts", "refusal"]

SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})  # RFC 9110's safe methods: they change nothing
_OWN_SITE = frozenset({"same-origin", "none"})  # `none`: the user typed the URL or followed a bookmark


def loopback_hosts(port: int) -> frozenset[str]:
    """The Host values of a loopback server on `port` (a browser leaves out port 80).

    >>> sorted(loopback_hosts(3000))
    ['127.0.0.1:3000', '[::1]:3000', 'localhost:3000']
    """
    names = ("127.0.0.1", "localhost", "[::1]")
    hosts = {f"{name}:{port}" for name in names}
    return frozenset(hosts | set(names) if port == 80 else hosts)


def refusal(method: str, header: Callable[[str], str | None], port: int) -> tuple[str, str] | None:
    """Why a request to the loopback server on `port` must be refused, as (the header, the reason);
    None when it may be served. `header(name)` gives a request header by its lower-case name.

    >>> headers = {"host": "127.0.0.1:3000", "origin": "https://evil.example"}
    >>> refusal("POST", headers.get, 3000)
    ('Origin', 'https://evil.example is not this server; a write from another web origin is refused')
    >>> refusal("GET", headers.get, 3000) is None
    True
    """
    host = (header("host") or "").strip().lower()
    if host not in loopback_hosts(port):
        return "Host", f"{host or 'none'} is not this server's name (127.0.0.1:{port} or localhost:{port})"
    if method.upper() in SAFE_METHODS:
        return None
    origin = header("origin")
    if origin is not None and origin.strip().lower() != f"http://{host}":
        return "Origin", f"{origin} is not this server; a write from another web origin is refused"
    site = header("sec-fetch-site")
    if site is not None and site.strip().lower() not in _OWN_SITE:
        return "Sec-Fetch-Site", f"{site}: a write from another web site is refused"
    return None
