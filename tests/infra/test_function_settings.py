"""Every function's environment is what its settings declarations ask for: each variable a declaration
requires is set, and nothing is set that no declaration reads (a variable declared with a None
default may be left out: the function was deployed without that table or schedule)."""

from __future__ import annotations

from tatami_functions.businesses.settings import BusinessesSettings
from tatami_functions.campaigns.settings import CampaignsSettings
from tatami_functions.carts.settings import CartsSettings
from tatami_functions.common.settings import PowertoolsSettings, Settings
from tatami_functions.common.tokens import PageTokenSettings
from tatami_functions.counters.settings import CountersSettings
from tatami_functions.devices.settings import ArchiveSettings, DeviceLogsSettings
from tatami_functions.documents.settings import DocumentsSettings
from tatami_functions.employees.settings import EmployeesSettings
from tatami_functions.forum.settings import ForumTables
from tatami_functions.invoices.settings import InvoicesSettings
from tatami_functions.ip_lookup.settings import LookupSettings
from tatami_functions.lockers.settings import LockersSettings
from tatami_functions.olap.settings import ExportSettings
from tatami_functions.orders.settings import OrdersTables
from tatami_functions.places.settings import PlacesSettings
from tatami_functions.replication.settings import ReplicatorSettings
from tests.support.synthesis import Synthesized
from zindex import ENV as ZINDEX_SPEC
from zindex.lambda_handler import BATCH_SIZE_ENV

# The engine's own variables (the zorder layer declares them; it cannot import common.settings).
SEARCH = frozenset({ZINDEX_SPEC})
MAINTAINER = frozenset({ZINDEX_SPEC, BATCH_SIZE_ENV})
# Handler -> the declarations its code reads (and the engine's variables for its search or maintainer).
DECLARED: dict[str, tuple[tuple[type[Settings], ...], frozenset[str]]] = {
    "tatami_functions.counters.handler.api": ((CountersSettings,), frozenset()),
    "tatami_functions.counters.handler.rollup": ((CountersSettings,), frozenset()),
    "tatami_functions.ip_lookup.handler.handler": ((LookupSettings,), frozenset()),
    "tatami_functions.places.handler.handler": ((PlacesSettings, PageTokenSettings), SEARCH),
    "tatami_functions.forum.handler.handler": ((ForumTables, PageTokenSettings), frozenset()),
    "tatami_functions.orders.handler.handler": ((OrdersTables, PageTokenSettings), SEARCH),
    "tatami_functions.businesses.handler.handler": (
        (BusinessesSettings, PageTokenSettings),
        frozenset(),
    ),
    "tatami_functions.devices.handler.handler": ((DeviceLogsSettings, PageTokenSettings), frozenset()),
    "tatami_functions.devices.handler.archive": ((ArchiveSettings,), frozenset()),
    "tatami_functions.carts.handler.handler": ((CartsSettings, PageTokenSettings), frozenset()),
    "tatami_functions.documents.handler.handler": (
        (DocumentsSettings, PageTokenSettings),
        frozenset(),
    ),
    "tatami_functions.lockers.handler.handler": ((LockersSettings, PageTokenSettings), frozenset()),
    "tatami_functions.campaigns.handler.handler": (
        (CampaignsSettings, PageTokenSettings),
        frozenset(),
    ),
    "tatami_functions.invoices.handler.handler": ((InvoicesSettings, PageTokenSettings), frozenset()),
    "tatami_functions.employees.handler.handler": ((EmployeesSettings, PageTokenSettings), frozenset()),
    "tatami_functions.replication.handler.handler": ((ReplicatorSettings,), frozenset()),
    "tatami_functions.olap.handler.handler": ((ExportSettings,), frozenset()),
    "tatami_functions.docs.handler.handler": ((), frozenset()),
    "zindex.lambda_handler.handler": ((), MAINTAINER),
}


def functions(synthesized: Synthesized) -> dict[str, tuple[str, set[str]]]:
    """Logical id -> (handler, the names of its environment's variables)."""
    return {
        logical_id: (
            resource["Properties"]["Handler"],
            set(resource["Properties"].get("Environment", {}).get("Variables", {})),
        )
        for logical_id, resource in synthesized.resources("AWS::Lambda::Function").items()
    }


def test_every_function_has_what_its_declarations_ask_for_and_nothing_else(synthesized: Synthesized) -> None:
    found = functions(synthesized)
    assert {handler for handler, _ in found.values()} == set(DECLARED)  # a new handler: declare it here
    for logical_id, (handler, variables) in found.items():
        declarations, engine = DECLARED[handler]
        every = (PowertoolsSettings, *declarations)
        required = set().union(*(d.names(optional=False) for d in every), engine)
        allowed = set().union(*(d.names() for d in every), engine)
        assert required - variables == set(), f"{logical_id} lacks variables its code reads"
        assert variables - allowed == set(), f"{logical_id} sets variables no declaration of its code reads"


def test_a_function_deployed_without_a_table_is_not_told_one(synthesized: Synthesized) -> None:
    """The optional variables are the least-privilege ones: the counters' reader gets no idempotency table."""
    (read,) = [v for k, (h, v) in functions(synthesized).items() if k.startswith("CountersReadFunction")]
    assert CountersSettings.name_of("idempotency_table") not in read
