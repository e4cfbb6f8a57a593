"""The console: a page that shows what tatami does (tables as the seeds draw them, Z plans on a map,
hot keys, backlogs, failure queues, invocations, grants, alarms), served on the local cloud's port
under /console and, for a deployed stack, by `tatami console` on loopback.

Its data comes through the same code the rest of tatami uses: the template's tables
(`tatami.local.template.assembly`), the API's searches with `explain=true`, the capacity model's insights, the
IAM report and the local cloud's own state. `http.py` answers /console; the rest are its sources.
It sits beside `tatami.local`, not inside: it reads the capacity model, which reads `tatami.local`.
"""

from tatami.console.http import CONSOLE_PATH, Console
from tatami.console.sources import LocalSource
from tatami.local.cloud import LocalCloud

__all__ = ["CONSOLE_PATH", "Console", "mount"]


def mount(cloud: LocalCloud) -> str:
    """Serve the console on the running local cloud's API port, beside (not among) its routes; its URL.

    The console reads the capacity model, which sits above the local cloud in the import layers, so
    whoever starts a cloud mounts it (`tatami local`, the test fixtures) instead of the cloud itself.
    """
    assert cloud.api is not None, "start the local cloud first"
    cloud.api.mount(CONSOLE_PATH, Console(LocalSource(cloud)))
    return f"{cloud.api_url}{CONSOLE_PATH}"
