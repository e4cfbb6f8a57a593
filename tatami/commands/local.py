"""`tatami local`: the whole app on this machine (what `make run` starts), and its helpers."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
from collections import Counter
from pathlib import Path
from typing import Any

import click

from tatami.checkout import repo_root
from tatami.commands.insights import insights
from tatami.commands.local_faults import faults
from tatami.commands.local_status import report, summary
from tatami.console import mount as mount_console
from tatami.local.cloud import LocalCloud, LocalCloudConfig
from tatami.local.control import ControlServer
from tatami.local.engines import processes as engines
from tatami.local.iam.guard import ENFORCE, MODES
from tatami.local.iam.report import least_privilege, render
from tatami.local.lifecycle import describe_stale, ports_free, stop_reporting
from tatami.local.state import AlreadyRunning, RunningState, default_work_dir, read_state, stale_state
from tatami.samples import Sample
from tatami.samples.catalog import selected


@click.group(invoke_without_command=True)
@click.option("--port", envvar="PORT", default=3000, show_default=True, help="API port (env PORT).")
@click.option("--dynamodb-port", default=8000, show_default=True, help="DynamoDB Local port.")
@click.option("--moto-port", default=5005, show_default=True, help="moto server port (S3, SQS, ...).")
@click.option(
    "--cdk-out",
    type=click.Path(path_type=Path),
    show_default="cdk.out in the checkout",
    help="Cloud assembly to serve.",
)
@click.option("--no-synth", is_flag=True, help="Serve --cdk-out as it is instead of synthesizing first.")
@click.option(
    "--app",
    "app_dir",
    type=click.Path(path_type=Path, file_okay=False, exists=True),
    show_default="the checkout",
    help="The folder of another CDK app (its app.py) to synthesize and serve, e.g. examples/listings; "
    "--cdk-out defaults to its cdk.out.",
)
@click.option(
    "--services",
    help="The services to deploy, comma-separated (the app's context `services`; default: all).",
)
@click.option("--no-samples", is_flag=True, help="Do not load the services' sample data.")
@click.option(
    "--db-path",
    type=click.Path(path_type=Path),
    default=None,
    help=(
        "Keep the local cloud's data in this folder: DynamoDB's tables, S3's objects, SQS's messages "
        "and the secrets' values (default: in memory, fresh each start; docs/local-cloud.md says what "
        "is not kept)."
    ),
)
@click.option("--quiet", is_flag=True, help="Do not echo function and request logs.")
@click.option(
    "--iam",
    "iam_mode",
    type=click.Choice(MODES),
    default=ENFORCE,
    show_default=True,
    help="IAM of each function from the template: enforce (refuse as AWS would), soft (log only), off.",
)
@click.pass_context
def local(
    ctx: click.Context,
    port: int,
    dynamodb_port: int,
    moto_port: int,
    cdk_out: Path | None,
    no_synth: bool,
    app_dir: Path | None,
    services: str | None,
    no_samples: bool,
    db_path: Path | None,
    quiet: bool,
    iam_mode: str,
) -> None:
    """Run the app locally: DynamoDB Local + moto, every route on http://127.0.0.1:PORT, every stream.

    Built from the synthesized template, so it serves exactly what `cdk deploy` would create.
    Ctrl-C stops everything it started.
    """
    if ctx.invoked_subcommand is not None:
        return
    app_dir = (app_dir or repo_root()).resolve()
    cdk_out = cdk_out or app_dir / "cdk.out"
    work_dir = default_work_dir()
    try:
        running = RunningState(work_dir)
    except AlreadyRunning as exc:
        raise click.ClickException(str(exc)) from None
    try:
        ports_free({"--port": port, "--dynamodb-port": dynamodb_port, "--moto-port": moto_port})
        if not no_synth:
            synthesize(cdk_out, app_dir, services)
        config = LocalCloudConfig(
            cdk_out=cdk_out,
            api_port=port,
            dynamodb_port=dynamodb_port,
            moto_port=moto_port,
            work_dir=work_dir,
            db_path=db_path,
            echo_logs=not quiet,
            iam_mode=iam_mode,
            fault_switch=work_dir / "faults.json",  # `tatami local faults` arms plans there
        )
        # The samples are tatami's selected services' data: another app has its own.
        samples = selected(services) if app_dir == repo_root().resolve() else []
        _serve(config, running, samples, load_samples=not no_samples)
    except (engines.EngineError, ValueError) as exc:
        raise click.ClickException(str(exc)) from None
    except KeyboardInterrupt:  # Ctrl-C before the cloud was up (synthesis, engines starting)
        raise click.ClickException("interrupted before the local cloud was up") from None
    finally:
        running.release()


def synthesize(cdk_out: Path, app_dir: Path | None = None, services: str | None = None) -> None:
    """Run `app_dir`'s app.py (default: the checkout's) into `cdk_out`; `services` selects the services
    (CDK context `services`, given as `cdk synth -c` gives context: CDK_CONTEXT_JSON)."""
    click.echo(f"synthesizing the CDK app into {cdk_out} ...")
    started = time.monotonic()
    context = {"CDK_CONTEXT_JSON": json.dumps({"services": services})} if services else {}
    result = subprocess.run(
        [sys.executable, "app.py"],
        cwd=app_dir or repo_root(),
        capture_output=True,
        text=True,
        env={**os.environ, "CDK_OUTDIR": str(cdk_out), **context},
    )
    if result.returncode != 0:
        raise click.ClickException(f"`python app.py` failed:\n{result.stderr[-4000:]}")
    click.echo(f"synthesized in {time.monotonic() - started:.1f} s")


def _serve(
    config: LocalCloudConfig, running: RunningState, samples: list[Sample], load_samples: bool
) -> None:
    stop = threading.Event()
    for signum in (signal.SIGINT, signal.SIGTERM):
        signal.signal(signum, lambda *_: stop.set())
    started = time.monotonic()
    cloud = LocalCloud(config)
    cloud.on_engine_lost = lambda _reason: stop.set()  # an engine gone for good: stop as on Ctrl-C
    cloud.start()
    control: ControlServer | None = None
    try:
        console_url = mount_console(cloud)
        control = ControlServer(cloud)
        running.publish(
            {
                "api_url": cloud.api_url,
                "console_url": console_url,
                "control_url": control.url,
                "outputs": cloud.outputs,
                "dynamodb_endpoint": cloud.dynamodb_endpoint,
                "moto_endpoint": cloud.moto_endpoint,
            }
        )
        _print_banner(cloud, console_url, samples, time.monotonic() - started)
        if load_samples and samples:
            threading.Thread(target=_load_samples, args=(cloud, samples), name="samples", daemon=True).start()
        stop.wait()
    finally:
        if control is not None:
            control.stop()
        stop_reporting(cloud, click.echo, running.release)
    if cloud.failure:
        raise click.ClickException(f"stopped: {cloud.failure}")
    click.echo("stopped")


def _print_banner(cloud: LocalCloud, console_url: str, samples: list[Sample], seconds: float) -> None:
    api = cloud.api_url
    lines = [
        "",
        f"tatami local cloud is up in {seconds:.1f} s",
        f"  API            {api}   (OpenAPI: {api}/openapi.json)",
        f"  console        {console_url}   (tables, Z plans on a map, hot keys, backlogs: in a browser)",
        f"  DynamoDB Local {cloud.dynamodb_endpoint}",
        f"  moto (S3/SQS)  {cloud.moto_endpoint}",
        "  try:",
        f"    curl -s {api}/openapi.json | head -c 300",
        *(f"    curl -s '{api}{example}'" for sample in samples for example in sample.examples),
        "  Ctrl-C stops everything.",
        "",
    ]
    click.echo("\n".join(lines))


class _ProgressLog:
    """Progress of one sample load as a log line at most every two seconds, and at the end."""

    def __init__(self, cloud: LocalCloud, name: str) -> None:
        self.cloud, self.name, self.last = cloud, name, 0.0

    def __call__(self, done: int, total: int) -> None:
        if time.monotonic() - self.last > 2 or done == total:
            self.last = time.monotonic()
            self.cloud.log.write("samples", f"{self.name}: {done}/{total}")


def _load_samples(cloud: LocalCloud, samples: list[Sample]) -> None:
    """Each selected service's sample in turn: one log line per service, FAILED with the reason."""
    for sample in samples:
        started = time.monotonic()
        try:
            summary = sample.load(cloud, _ProgressLog(cloud, sample.name))
        except Exception as exc:  # noqa: BLE001 - one sample failing must not stop the cloud
            cloud.log.write("samples", f"{sample.name}: FAILED: {type(exc).__name__}: {exc}")
            continue
        cloud.log.write("samples", f"{sample.name}: {summary} ({time.monotonic() - started:.1f} s)")


@local.command()
@click.argument("rule")
def fire(rule: str) -> None:
    """Fire a scheduled rule of the running local cloud now (by construct id or logical id)."""
    state = _running_state()
    request = urllib.request.Request(f"{state['control_url']}/rules/{rule}/fire", method="POST")
    try:
        with urllib.request.urlopen(request, timeout=900) as response:
            body = json.loads(response.read())
    except urllib.error.HTTPError as exc:
        raise click.ClickException(json.loads(exc.read()).get("message", str(exc))) from None
    for invocation in body["invocations"]:
        outcome = invocation["result"] if invocation["ok"] else invocation["error"]
        click.echo(
            f"{invocation['request_id']}: {'ok' if invocation['ok'] else 'FAILED'} {json.dumps(outcome)}"
        )


@local.command()
@click.option(
    "--iam-report", is_flag=True, help="Per function: the actions it used, and those granted but never used."
)
@click.option("--json", "as_json", is_flag=True, help="The whole report as JSON, for scripts.")
def status(iam_report: bool, as_json: bool) -> None:
    """Say whether a local cloud runs here, where, whether each engine is up (and how often it was
    restarted), which stream triggers have a backlog (records not yet delivered: an index maintainer
    still catching up) and how many alarms are in each state; clear a crashed run's state. `--json`
    adds the stack outputs and every trigger's counts."""
    work_dir = default_work_dir()
    stale = stale_state(work_dir)
    if stale is not None:
        raise click.ClickException(describe_stale(work_dir, stale))
    if iam_report:
        try:
            click.echo(render(least_privilege(work_dir)))
        except FileNotFoundError as exc:
            raise click.ClickException(str(exc)) from None
        return
    state = _running_state()
    found = report(state, *(_control(state, part) for part in ("engines", "streams", "alarms")))
    click.echo(json.dumps(found, indent=2) if as_json else "\n".join(summary(found)))


@local.command()
@click.option(
    "--all", "everything", is_flag=True, help="Every alarm, not only those in ALARM or without data."
)
def alarms(everything: bool) -> None:
    """The template's alarms as the running local cloud evaluates them: state, name, what each watches
    and why it is in its state (docs/runbook.md says what to do)."""
    found = _control(_running_state(), "alarms")
    if not isinstance(found, list):
        raise click.ClickException(f"the local cloud did not answer: {found['unavailable']}")
    shown = [alarm for alarm in found if everything or alarm["state"] != "OK"]
    for alarm in shown:
        click.echo(f"{alarm['state']:<17} {alarm['name']}\n{'':<17} {alarm['watches']}: {alarm['reason']}")
    click.echo(f"{len(found)} alarms: {dict(Counter(alarm['state'] for alarm in found))}")


def _control(state: dict[str, Any], what: str) -> Any:
    """GET /`what` of the running cloud's control endpoint: its engines (each one up or not, and its
    restarts), stream triggers (each one's backlog and deliveries) or alarms."""
    try:
        with urllib.request.urlopen(f"{state['control_url']}/{what}", timeout=60) as response:
            return json.loads(response.read())
    except (OSError, KeyError, ValueError) as exc:
        return {"unavailable": str(exc)}


def _running_state() -> dict[str, Any]:
    state = read_state(default_work_dir())
    if not state or state.get("starting"):
        raise click.ClickException("no local cloud runs in this checkout: start one with `make run`")
    return state


local.add_command(insights)  # `tatami local insights` lives in tatami/commands/insights.py
local.add_command(faults)  # `tatami local faults` lives in tatami/commands/local_faults.py
