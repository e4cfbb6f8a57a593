"""`tatami local faults KIND`: the running local cloud's functions meet a fault until `tatami local
faults off` (tatami/local/engines/faults.py; the control endpoint arms it in every function).

    tatami local faults lose-responses --operation dynamodb.UpdateItem --table CountersShards --attempt 1

loses the first answer of every UpdateItem on the counters' shards table: DynamoDB applies the call,
the function sees a read timeout, and what it answers shows whether it tells the truth about it.
"""

from __future__ import annotations

import json
import urllib.error
import urllib.request

import click

from tatami.local.engines.faults import KINDS, FaultPlan
from tatami.local.state import default_work_dir, read_state


@click.command()
@click.argument("kind", type=click.Choice([*KINDS, "off"]))
@click.option(
    "--operation", "operations", multiple=True, help="dynamodb.UpdateItem, or a service: s3 (default: all)."
)
@click.option(
    "--table",
    "resources",
    multiple=True,
    help="Only calls naming this table, bucket or queue (or part of its name).",
)
@click.option(
    "--rate", type=click.FloatRange(0, 1), default=1.0, show_default=True, help="Share of matching calls."
)
@click.option(
    "--attempt", "attempts", type=click.IntRange(1), multiple=True, help="Only this attempt (1: the first)."
)
@click.option(
    "--seed", type=int, default=0, show_default=True, help="Seed of the choice of calls (with --rate)."
)
def faults(
    kind: str,
    operations: tuple[str, ...],
    resources: tuple[str, ...],
    rate: float,
    attempts: tuple[int, ...],
    seed: int,
) -> None:
    """Make the running local cloud's functions meet KIND (lose-responses: the call applies and its
    answer is lost; throttle; unreachable; server-errors) on the calls chosen, or stop (off)."""
    state = read_state(default_work_dir())
    if not state or state.get("starting"):
        raise click.ClickException("no local cloud runs in this checkout: start one with `make run`")
    if kind == "off":
        request = urllib.request.Request(f"{state['control_url']}/faults", method="DELETE")
    else:
        plan = FaultPlan(rate, KINDS[kind], operations, seed=seed, resources=resources, attempts=attempts)
        request = urllib.request.Request(
            f"{state['control_url']}/faults", plan.to_json().encode(), method="PUT"
        )
    try:
        with urllib.request.urlopen(request, timeout=60) as response:
            armed = json.loads(response.read())["armed"]
    except urllib.error.HTTPError as exc:
        raise click.ClickException(json.loads(exc.read()).get("message", str(exc))) from None
    click.echo("no fault armed" if armed is None else f"armed in every function: {json.dumps(armed)}")
