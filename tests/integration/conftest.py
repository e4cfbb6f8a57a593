"""Session fixtures that start real engines: DynamoDB Local alone, and whole local clouds."""

from __future__ import annotations

import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest

from tatami.local.cloud import LocalCloud, LocalCloudConfig, free_ports
from tatami.local.engines import processes as engines
from tatami.local.engines.faults import FaultPlan
from tatami.local.gateway.routes import read_routes
from tatami.local.template.assembly import load_assembly
from tatami_functions import stack_outputs
from tests.support.invoices_employees import Labs, serving
from tests.support.models_workshop import Recorder
from tests.support.service_tables import create_lab_table
from tests.support.synthesis import Synthesized

REPO = Path(__file__).resolve().parents[2]
PROBE_APP = REPO / "tests" / "fixtures" / "probe_app" / "app.py"


def start_cloud(cdk_out: Path, work_dir: Path) -> LocalCloud:
    config = LocalCloudConfig(
        cdk_out=cdk_out,
        **free_ports(),
        work_dir=work_dir,
        echo_logs=False,
        poll_interval=0.05,
    )
    return LocalCloud(config).start()


@pytest.fixture(scope="session")
def dynamodb_local(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """The endpoint of a DynamoDB Local of its own (in memory) for repository-level tests."""
    engine = engines.start_dynamodb_local(engines.free_port(), tmp_path_factory.mktemp("ddb") / "ddb.log")
    yield engine.endpoint
    engine.stop()


@pytest.fixture(scope="session")
def app_cloud(synthesized: Synthesized, tmp_path_factory: pytest.TempPathFactory) -> Iterator[LocalCloud]:
    """tatami's own app on a local cloud shared by the session's suites (`start_app_cloud`)."""
    cloud = start_app_cloud(synthesized.cdk_out, tmp_path_factory.mktemp("app"))
    yield cloud
    cloud.stop()


def start_app_cloud(cdk_out: Path, root: Path) -> LocalCloud:
    """tatami's own app, synthesized in `cdk_out` (the template tests' synthesis: a local cloud only reads
    it), on a local cloud working in `root` (functions start cold on first use); suites
    that read what the whole cloud holds or saw (every table's items, its recorded traffic) start one of
    their own. Its API functions' DynamoDB calls fail while a switch file exists
    (`tests.support.failing.failing`)."""
    api_functions = {
        route.function_id
        for stack in load_assembly(cdk_out).stacks
        for route in read_routes(stack)
        if route.function_id
    }
    switched = FaultPlan(switch=str(root / "faults.json"))
    config = LocalCloudConfig(
        cdk_out=cdk_out,
        **free_ports(),
        work_dir=root / "work",
        echo_logs=False,
        poll_interval=0.05,
        warm_functions=False,
        faults=dict.fromkeys(sorted(api_functions), switched),
    )
    return LocalCloud(config).start()


@pytest.fixture(scope="session")
def labs(dynamodb_local: str) -> Labs:
    """The invoices and employees tables with their sample (tests.support.invoices_employees)."""
    from tatami.local.engines import processes as engines
    from tatami.samples.employees import employees, load_employees
    from tatami.samples.invoices import invoices
    from tatami_functions.invoices import service
    from tatami_functions.invoices.repository import InvoicesRepository
    from tatami_functions.invoices.schemas import InvoiceIn

    client = engines.dynamodb_client(dynamodb_local)
    prefix = f"labs-{uuid.uuid4().hex[:6]}"
    built = Labs(
        client,
        create_lab_table(client, stack_outputs.OUTPUT_INVOICES_TABLE, prefix),
        create_lab_table(client, stack_outputs.OUTPUT_EMPLOYEES_TABLE, prefix),
        Recorder().attach(client),
    )
    with serving(service, InvoicesRepository(built.invoices, client=client)):
        for invoice in invoices():
            service.put(invoice.pop("id"), InvoiceIn.model_validate(invoice))
    load_employees(client, built.employees, employees())
    built.recorder.clear()
    return built


# The samples `make run` loads, each loaded once into the session's `app_cloud`: the API's URL.
def _load_samples(cloud: LocalCloud, *services: str) -> list[str]:
    """Load the named services' samples (tatami.samples.catalog) as `tatami local` does; their summaries."""
    from tatami.samples.catalog import SAMPLES

    return [SAMPLES[service].load(cloud, lambda done, total: None) for service in services]


@pytest.fixture(scope="session")
def labs_api(app_cloud: LocalCloud) -> str:
    """Invoices, employees and log lines: seed 004's labs (three services' samples)."""
    assert _load_samples(app_cloud, "invoices", "employees", "replication") == [
        "11 invoices",
        "1,000 employees (4,000 items)",
        "200 log lines (replicated by the stream)",
    ]
    return app_cloud.api_url


@pytest.fixture(scope="session")
def workshop_api(app_cloud: LocalCloud) -> str:
    """Device logs, carts, documents, lockers and campaign profiles: seed 004's models workshop."""
    assert _load_samples(app_cloud, "devices", "carts", "documents", "lockers", "campaigns") == [
        "15 device logs",
        "3 carts (7 writes)",
        "4 documents",
        "6 lockers",
        "6 campaign profiles",
    ]
    return app_cloud.api_url


@pytest.fixture(scope="session")
def forum_orders_api(app_cloud: LocalCloud) -> str:
    """Forums, businesses and orders (seeds 001, 002)."""
    assert _load_samples(app_cloud, "forum", "businesses", "orders") == [
        "2 forums, 3 threads, 5 replies",
        "9 businesses",
        "240 orders of 12 customers",
    ]
    return app_cloud.api_url
