"""The console in a real browser: Playwright driving Debian's Chromium (`make install` installs it;
`playwright install` cannot download a browser here) against an app cloud of its own, one browser for
every test. Each test's page fails it on a console error or on any request that leaves loopback."""

from __future__ import annotations

import ipaddress
import re
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import urlsplit

import pytest
from playwright.sync_api import Browser, Page, Playwright, Route, sync_playwright

from tatami.console import mount
from tatami.local.cloud import LocalCloud
from tests.integration.conftest import start_app_cloud
from tests.integration.console import data
from tests.support.synthesis import Synthesized

CHROMIUM = Path("/usr/bin/chromium")
# A name a DNS-rebinding attacker controls, once it resolves to 127.0.0.1 (test_foreign_pages.py).
REBOUND_NAME = "rebound.example"
# The flags that work on these machines: no sandbox as root, and none of Chromium's own calls home;
# and the rebinding attacker's name resolved to loopback, as its DNS server would after the switch.
FLAGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    f"--host-resolver-rules=MAP {REBOUND_NAME} 127.0.0.1",
]
VIEWPORT = {"width": 1180, "height": 760}
# Every URL but loopback's and the page's own data: matched in Playwright's driver, so only such a
# request (there should be none) makes a round trip to this process; the rest go on untouched.
BEYOND_LOOPBACK = re.compile(
    r"^(?!(https?://(127\.\d+\.\d+\.\d+|localhost|\[::1\])(:\d+)?/|data:|blob:|about:))"
)


@dataclass
class Console:
    cloud: LocalCloud
    url: str
    poison_key: str


@dataclass
class Watched:
    """A page and what it did that it must not: console errors, requests beyond loopback."""

    page: Page
    errors: list[str] = field(default_factory=list)
    escaped: list[str] = field(default_factory=list)
    requests: list[str] = field(default_factory=list)


@pytest.fixture(scope="package")
def console_cloud(synthesized: Synthesized, tmp_path_factory: pytest.TempPathFactory) -> Iterator[LocalCloud]:
    """The app on a local cloud of the console's own: its views show every table's busiest keys and the
    recorded traffic, which on the session's shared cloud would be whatever other suites left there."""
    cloud = start_app_cloud(synthesized.cdk_out, tmp_path_factory.mktemp("console"))
    yield cloud
    cloud.stop()


@pytest.fixture(scope="module")
def console(console_cloud: LocalCloud) -> Console:
    """The console's cloud with the console mounted (as `tatami local` mounts it) and something to show."""
    started = time.perf_counter()
    url = mount(console_cloud)
    data.warm(console_cloud)
    data.put_places(console_cloud)
    data.post_orders(console_cloud)
    found = Console(console_cloud, url, data.park_a_poison_record(console_cloud))
    print(f"console data in place in {time.perf_counter() - started:.1f} s")
    return found


@pytest.fixture(scope="session")
def playwright() -> Iterator[Playwright]:
    with sync_playwright() as running:
        yield running


@pytest.fixture(scope="session")
def browser(playwright: Playwright) -> Iterator[Browser]:
    assert CHROMIUM.exists(), "Chromium is missing: `make install` installs Debian's chromium package"
    # Playwright gives each launch a fresh, empty user-data folder of its own.
    launched = playwright.chromium.launch(executable_path=str(CHROMIUM), args=FLAGS)
    yield launched
    launched.close()


def loopback(url: str) -> bool:
    """Whether a URL's host is this machine (127.0.0.0/8, ::1, localhost); data: URLs stay in the page.

    >>> loopback("http://127.0.0.1:3000/console"), loopback("https://example.com/x"), loopback("data:,")
    (True, False, True)
    """
    split = urlsplit(url)
    if split.scheme in ("data", "blob", "about"):
        return True
    host = split.hostname or ""
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def watch(browser: Browser) -> Watched:
    """A fresh context (empty cache) and page, with its requests, refusals and errors recorded."""
    context = browser.new_context(viewport=VIEWPORT)
    page = context.new_page()
    found = Watched(page)

    def refuse(route: Route) -> None:  # never sent: recorded and refused here
        found.escaped.append(route.request.url)
        route.abort()

    context.route(BEYOND_LOOPBACK, refuse)
    page.on("request", lambda request: found.requests.append(request.url))
    page.on("console", lambda message: found.errors.append(message.text) if message.type == "error" else None)
    page.on("pageerror", lambda error: found.errors.append(f"uncaught: {error}"))
    return found


def check(found: Watched) -> None:
    found.page.context.close()
    assert not found.escaped, f"requests left loopback: {found.escaped}"
    assert all(loopback(url) for url in found.requests), found.requests
    assert not found.errors, f"console errors: {found.errors}"


@pytest.fixture
def watched(browser: Browser) -> Iterator[Watched]:
    found = watch(browser)
    yield found
    check(found)
