"""Every function's environment is what its settings declarations ask for: each variable a declaration
requires is set, and nothing is set that no declaration reads (a variable declared with a None
default may be left out: the function was deployed without that table or schedule)."""

from __future__ import annotations

from common.settings import PowertoolsSettings, Settings
from common.tokens import PageTokenSettings
from counters.settings import CountersSettings
from ip_lookup.settings import LookupSettings
from labs.employees.settings import EmployeesSettings
from labs.invoices.settings import InvoicesSettings
from labs.replication.settings import ReplicatorSettings
from models.businesses.settings import BusinessesSettings
from models.campaigns.settings import CampaignsSettings
from models.carts.settings import CartsSettings
from models.devices.settings import ArchiveSettings, DeviceLogsSettings
from models.documents.settings import DocumentsSettings
from models.forum.settings import ForumTables
from models.lockers.settings import LockersSettings
from models.orders.settings import OrdersTables
from olap.settings import ExportSettings
from tests.support.synthesis import Synthesized
from zindex import ENV as ZINDEX_SPEC
from zindex.lambda_handler import BATCH_SIZE_ENV

# The engine's own variables (the zorder layer declares them; it cannot import common.settings).
SEARCH = frozenset({ZINDEX_SPEC})
MAINTAINER = frozenset({ZINDEX_SPEC, BATCH_SIZE_ENV})
# Handler -> the declarations its code reads (and the engine's variables for its search or maintainer).
DECLARED: dict[str, tuple[tuple[type[Settings], ...], frozenset[str]]] = {
    "counters.handler.api": ((CountersSettings,), frozenset()),
    "counters.handler.rollup": ((CountersSettings,), frozenset()),
    "ip_lookup.handler.handler": ((LookupSettings,), frozenset()),
    "places.handler.handler": ((PageTokenSettings,), SEARCH),
    "models.forum.handler.handler": ((ForumTables, PageTokenSettings), frozenset()),
    "models.orders.handler.handler": ((OrdersTables, PageTokenSettings), SEARCH),
    "models.businesses.handler.handler": ((BusinessesSettings, PageTokenSettings), frozenset()),
    "models.devices.handler.handler": ((DeviceLogsSettings, PageTokenSettings), frozenset()),
    "models.devices.handler.archive": ((ArchiveSettings,), frozenset()),
    "models.carts.handler.handler": ((CartsSettings, PageTokenSettings), frozenset()),
    "models.documents.handler.handler": ((DocumentsSettings, PageTokenSettings), frozenset()),
    "models.lockers.handler.handler": ((LockersSettings, PageTokenSettings), frozenset()),
    "models.campaigns.handler.handler": ((CampaignsSettings, PageTokenSettings), frozenset()),
    "labs.invoices.handler.handler": ((InvoicesSettings, PageTokenSettings), frozenset()),
    "labs.employees.handler.handler": ((EmployeesSettings, PageTokenSettings), frozenset()),
    "labs.replication.handler.handler": ((ReplicatorSettings,), frozenset()),
    "olap.handler.handler": ((ExportSettings,), frozenset()),
    "docs.handler.handler": ((), frozenset()),
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
