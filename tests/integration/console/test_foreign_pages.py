"""In Chromium, a web page the developer opens cannot use the local cloud or its console (issue 36):

- a cross-site page (served from http://localhost:<its port>, another site than 127.0.0.1) submits
  forms (url-encoded and text/plain: what any page may POST anywhere without a preflight) and sends
  no-cors fetches to the API and to the console: each is refused 403 and nothing changes;
- a DNS-rebinding page (its name resolves to 127.0.0.1: `REBOUND_NAME`, mapped by the browser's
  flags) is refused whatever it asks for, so it reads neither the console nor the API.
"""

from __future__ import annotations

import html
import threading
import uuid
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import pytest
import requests
from playwright.sync_api import Browser, Page

from tatami.console import mount
from tatami.local.cloud import LocalCloud
from tests.integration.console.conftest import REBOUND_NAME

PAGES: dict[str, str] = {}  # the attacker's site: path -> HTML


class _AttackerSite(BaseHTTPRequestHandler):
    def do_GET(self) -> None:
        body = PAGES.get(self.path, "").encode()
        self.send_response(200 if body else 404)
        self.send_header("Content-Type", "text/html")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, format: str, *args: Any) -> None:
        """Quiet."""


@pytest.fixture(scope="module")
def attacker() -> Iterator[str]:
    """The attacker's site, on loopback under another name: http://localhost:<port>."""
    server = ThreadingHTTPServer(("127.0.0.1", 0), _AttackerSite)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    yield f"http://localhost:{server.server_address[1]}"
    server.shutdown()
    server.server_close()


@pytest.fixture(scope="module")
def counter(app_cloud: LocalCloud) -> str:
    mount(app_cloud)  # as `tatami local` serves it
    name = f"browser-{uuid.uuid4().hex[:8]}"
    created = requests.put(f"{app_cloud.api_url}/counters/{name}", json={"target_wcu": 100}, timeout=60)
    assert created.status_code in (200, 201), created.text
    return name


def _form(action: str, enctype: str, body: str) -> str:
    """A page that POSTs `body` to `action` as soon as it loads (a text/plain form sends name=value:
    the name carries the JSON up to a string the value closes)."""
    name, value = body[:-2] + ', "pad": "', '"}'
    return (
        f'<form method="POST" action="{html.escape(action)}" enctype="{enctype}">'
        f'<input name="{html.escape(name)}" value="{html.escape(value)}"></form>'
        "<script>document.forms[0].submit()</script>"
    )


def _value(cloud: LocalCloud, name: str) -> Any:
    return requests.get(f"{cloud.api_url}/counters/{name}", timeout=60).json()["value"]


def _page(browser: Browser) -> Page:
    return browser.new_context().new_page()  # a context of its own: no route refuses foreign URLs


@pytest.mark.parametrize("enctype", ["text/plain", "application/x-www-form-urlencoded"])
@pytest.mark.parametrize("target", ["counter", "console"])
def test_a_cross_site_form_is_refused_and_changes_nothing(
    browser: Browser, app_cloud: LocalCloud, attacker: str, counter: str, enctype: str, target: str
) -> None:
    path = f"/counters/{counter}/increments" if target == "counter" else "/console/api/zcells"
    PAGES["/form.html"] = _form(f"{app_cloud.api_url}{path}", enctype, '{"by": 5, "table": "x"}')
    page = _page(browser)
    try:
        with page.expect_response(lambda response: response.url.endswith(path)) as answer:
            page.goto(f"{attacker}/form.html")
        assert answer.value.status == 403
        assert answer.value.json()["errors"][0]["field"] in ("Origin", "Sec-Fetch-Site")
    finally:
        page.context.close()
    assert _value(app_cloud, counter) == 0


def test_a_cross_site_no_cors_fetch_changes_nothing(
    browser: Browser, app_cloud: LocalCloud, attacker: str, counter: str
) -> None:
    PAGES["/fetch.html"] = "<p>nothing to see</p>"
    page = _page(browser)
    try:
        page.goto(f"{attacker}/fetch.html")
        sent = page.evaluate(
            """async ([url, types]) => {
                for (const type of types) {
                    await fetch(url, {method: "POST", mode: "no-cors", headers: {"Content-Type": type},
                                      body: '{"by": 7}'});
                }
                await fetch(url, {method: "POST", mode: "no-cors", body: new Blob(['{"by": 7}'])});
                return types.length + 1;
            }""",
            [
                f"{app_cloud.api_url}/counters/{counter}/increments",
                ["application/x-www-form-urlencoded", "text/plain", "multipart/form-data"],
            ],
        )
    finally:
        page.context.close()
    assert sent == 4 and _value(app_cloud, counter) == 0


def test_a_dns_rebinding_page_reads_neither_the_console_nor_the_api(
    browser: Browser, app_cloud: LocalCloud, counter: str
) -> None:
    port = app_cloud.api.port if app_cloud.api else 0
    page = _page(browser)
    try:
        landed = page.goto(f"http://{REBOUND_NAME}:{port}/console")
        assert landed is not None and landed.status == 403
        read = page.evaluate(
            """paths => Promise.all(paths.map(async path => {
                const answer = await fetch(path);
                return [answer.status, await answer.text()];
            }))""",
            ["/console/api/tables", "/console/api/operations", f"/counters/{counter}", "/openapi.json"],
        )
        assert [status for status, _ in read] == [403] * 4
        assert not any(counter in text or "TableName" in text for _, text in read)
        assert page.goto(f"http://127.0.0.1:{port}/console").status == 200  # by its own name it serves
    finally:
        page.context.close()
