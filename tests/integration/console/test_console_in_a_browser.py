"""Every view of the console in Chromium on the app's local cloud: what it shows is what the API and
the template say, it loads fast and small, and it never reaches beyond loopback (the `watched` page
fails a test on a console error or on any such request). Each test rewrites its view's screenshot in
docs/console/, which the README shows."""

from __future__ import annotations

import io
import statistics
from pathlib import Path
from urllib.parse import parse_qsl, urlsplit

import requests
from PIL import Image
from playwright.sync_api import Browser, Page

from tatami_functions import stack_outputs
from tests.integration.console.conftest import Console, Watched, check, watch
from tests.integration.console.data import CITIES, search_all

SCREENSHOTS = Path(__file__).resolve().parents[3] / "docs" / "console"
FIRST_LOAD_SECONDS = 1.0
FIRST_LOAD_BYTES = 500_000
VIEWS = ("tables", "places", "orders", "traffic", "operations")


def open_view(page: Page, url: str, view: str) -> None:
    page.goto(f"{url}#{view}")
    page.wait_for_selector(f'#view[data-view="{view}"][data-ready="true"]', timeout=30_000)


def screenshot(page: Page, view: str) -> None:
    """The view as the README shows it: a PNG of 256 colours (a third of the full-colour file)."""
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    image = Image.open(io.BytesIO(page.screenshot())).convert("RGB").quantize(256)
    image.save(SCREENSHOTS / f"{view}.png", optimize=True)


def drag(page: Page, testid: str, start: tuple[float, float], end: tuple[float, float]) -> None:
    """Drag across an SVG plane from one point to another, in the plane's own (viewBox) units."""
    plane = page.locator(f'[data-testid="{testid}"]')
    box, width = plane.bounding_box(), float(plane.get_attribute("width") or 1)
    assert box is not None
    scale = box["width"] / width
    page.mouse.move(box["x"] + start[0] * scale, box["y"] + start[1] * scale)
    page.mouse.down()
    page.mouse.move(box["x"] + end[0] * scale, box["y"] + end[1] * scale, steps=6)
    page.mouse.up()


def map_point(longitude: float, latitude: float) -> tuple[float, float]:
    """Where a place lies on the 900 x 454 map (44 px left and 8 px top of axes; 848 x 424 of world)."""
    return 44 + (longitude + 180) / 360 * 848, 8 + (90 - latitude) / 180 * 424


def searched(watched: Watched, path: str) -> dict[str, str]:
    """The parameters of the last search the page sent to the API on `path`."""
    sent = [url for url in watched.requests if urlsplit(url).path == path and "explain=true" in url]
    assert sent, f"the page sent no search to {path}: {watched.requests}"
    return dict(parse_qsl(urlsplit(sent[-1]).query))


def shown_ids(page: Page) -> set[str]:
    return set(page.locator('[data-testid="results"] tbody tr td:first-child').all_inner_texts())


def test_the_first_load_takes_under_a_second_and_500_kb(browser: Browser, console: Console) -> None:
    """From navigation to the tables view drawn with its data, as the page itself measures it (its
    `console-ready` mark), three times, each in a fresh context (nothing cached); the median counts."""
    seconds = []
    for _ in range(3):
        watched = watch(browser)
        open_view(watched.page, console.url, "tables")
        seconds.append(
            watched.page.evaluate("performance.getEntriesByName('console-ready')[0].startTime") / 1000
        )
        sizes = watched.page.evaluate(
            "performance.getEntriesByType('navigation').concat(performance.getEntriesByType('resource'))"
            ".map(entry => [entry.name, entry.encodedBodySize])"
        )
        check(watched)
    assets = {name: size for name, size in sizes if "/console/api/" not in name}
    print(
        f"first loads {[round(s * 1000) for s in seconds]} ms; {len(assets)} assets, {sum(assets.values())} B"
    )
    assert statistics.median(seconds) < FIRST_LOAD_SECONDS, seconds
    assert 0 < sum(assets.values()) < FIRST_LOAD_BYTES, assets


def test_every_view_together_stays_under_500_kb(watched: Watched, console: Console) -> None:
    """The libraries a view needs load with it (the map's outline, the charts): all of them at once."""
    for view in VIEWS:
        open_view(watched.page, console.url, view)
    sizes = watched.page.evaluate(
        "performance.getEntriesByType('resource').map(entry => [entry.name, entry.encodedBodySize])"
    )
    assets = {name: size for name, size in sizes if "/console/api/" not in name and "/console/" in name}
    print(f"every view: {len(assets)} assets, {sum(assets.values()):,} B")
    assert sum(assets.values()) < FIRST_LOAD_BYTES, assets


def test_the_tables_view_shows_every_table_of_the_template(watched: Watched, console: Console) -> None:
    page, cloud = watched.page, console.cloud
    open_view(page, console.url, "tables")
    listed = page.locator("[data-table]").evaluate_all("nodes => nodes.map(n => n.dataset.table)")
    assert sorted(listed) == sorted(table.name for table in cloud.assembly.tables)
    places = cloud.outputs[stack_outputs.OUTPUT_PLACES_TABLE]
    page.click(f'[data-table="{places}"]')
    page.wait_for_selector('[data-testid="aggregate"] tbody tr')
    partition_cells = page.locator('[data-testid="aggregate"] td.pk').all_inner_texts()
    assert {f"console-{name.lower().replace(' ', '-')}" for name, *_ in CITIES} <= set(partition_cells)
    # The sparse Z index holds only what the maintainer indexed: its page is that index's own Scan.
    page.click('[data-index="places-z"]')
    page.wait_for_selector('[data-testid="aggregate"] th:has-text("(partition)")')
    index_rows = page.locator('[data-testid="aggregate"] tbody tr').count()
    scanned = cloud.client("dynamodb").scan(TableName=places, IndexName="places-z", Limit=50)["Count"]
    assert index_rows == scanned > 0
    screenshot(page, "tables")


def test_a_box_drawn_on_the_map_returns_what_the_api_returns(watched: Watched, console: Console) -> None:
    page = watched.page
    open_view(page, console.url, "places")
    drag(page, "map", map_point(124, 47), map_point(146, 30))  # Korea and most of Japan
    page.wait_for_selector('[data-testid="results"] tbody tr')
    query = searched(watched, "/places/search")
    assert float(query["longitude_min"]) < 127 < 139 < float(query["longitude_max"])
    asked = {k: v for k, v in query.items() if k not in ("explain", "limit", "next")}
    expected = {place["id"] for place in search_all(console.cloud.api_url, "/places/search", asked)}
    assert shown_ids(page) == expected
    assert {"console-tokyo", "console-seoul", "console-osaka"} <= expected
    assert page.locator("rect.cell").count() > 0  # the chosen plan's Z ranges drawn over the box
    assert page.locator('[data-testid="explain"] tr.chosen').count() == 1
    screenshot(page, "places")


def test_a_box_on_the_orders_chart_returns_what_the_api_returns(watched: Watched, console: Console) -> None:
    page = watched.page
    open_view(page, console.url, "orders")
    drag(page, "orders-chart", (60, 40), (880, 300))
    page.wait_for_selector('[data-testid="results"] tbody tr')
    query = searched(watched, "/orders/search")
    asked = {k: v for k, v in query.items() if k not in ("explain", "limit", "next")}
    expected = {order["OrderId"] for order in search_all(console.cloud.api_url, "/orders/search", asked)}
    assert shown_ids(page) == expected != set()
    assert page.locator('[data-testid="explain"] tr.chosen').count() == 1
    screenshot(page, "orders")


def test_the_traffic_view_draws_the_hot_keys_and_the_verdict(watched: Watched, console: Console) -> None:
    page = watched.page
    open_view(page, console.url, "traffic")
    hot = page.locator('[data-testid="hot-keys"]').inner_text()
    # The view draws the hottest key of each of the busiest tables and indexes the endpoint reports. The
    # session's cloud has served the suites before this one too, so the console's own places are drawn
    # only when they are among the busiest: then their keys are the ones this module wrote.
    found = requests.get(f"{console.url}/api/traffic", timeout=60).json()
    assert found["spaces"], found
    for space in found["spaces"]:
        assert space["keys"][0]["key"] in hot, (space["name"], hot)
    places = [key["key"] for space in found["spaces"] if "Places" in space["name"] for key in space["keys"]]
    assert not places or any("console-" in key or key.startswith("places-z#") for key in places), places
    assert page.locator('[data-testid="verdict"]').inner_text().strip()
    assert page.locator(".chart canvas").count() >= 2  # units per second, and the replay's
    screenshot(page, "traffic")


def test_a_poison_record_shows_in_the_failure_queue_view(watched: Watched, console: Console) -> None:
    page = watched.page
    open_view(page, console.url, "operations")
    queue = page.locator("[data-queue]", has_text=console.poison_key)
    assert queue.count() == 1, page.locator('[data-testid="queues"]').inner_text()
    page.locator("summary", has_text="body").first.click()
    assert "UnreplicableRecord" in queue.inner_text()
    alarms = page.locator('[data-testid="alarms"] tbody tr')  # the evaluator's, one row per alarm
    assert alarms.count() == len(console.cloud.alarm_states()) > 100
    functions = page.locator('[data-testid="functions"]').inner_text()
    assert "PlacesApiFunction" in functions
    screenshot(page, "operations")


def test_a_bad_parameter_is_a_400_naming_it(console: Console) -> None:
    api = f"{console.url}/api"
    for url, field in [
        (f"{api}/items?table=nope", "table"),
        (f"{api}/items?table={console.cloud.assembly.tables[0].name}&limit=0", "limit"),
        (f"{api}/items?table={console.cloud.assembly.tables[0].name}&next=forged", "next"),
        (f"{api}/traffic?scale=-1", "scale"),
    ]:
        response = requests.get(url, timeout=30)
        assert response.status_code == 400, response.text
        assert response.json()["errors"][0]["field"] == field
    response = requests.post(
        f"{api}/zcells",
        json={
            "table": "places",
            "index": "places-z",
            "ranges": [["x", "1"]],
            "axes": ["longitude", "latitude"],
        },
    )
    assert (response.status_code, response.json()["errors"][0]["field"]) == (400, "ranges")
