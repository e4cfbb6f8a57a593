"""`tatami doctor`: check, from the synthesized app, that what runs locally will run after `cdk deploy`.

It synthesizes the app into a temporary folder, so the checkout's `cdk.out` (which `tatami local`
serves from, and `cdk deploy` may be about to use) is written only when `--cdk-out` names it.
"""

from __future__ import annotations

import tempfile
import time
from pathlib import Path

import click

from tatami.checkout import repo_root
from tatami.commands.local import synthesize


@click.command()
@click.option(
    "--cdk-out",
    type=click.Path(path_type=Path),
    help="Synthesize into this folder and check it (default: a temporary folder, removed afterwards).",
)
@click.option(
    "--no-synth", is_flag=True, help="Check --cdk-out (default: the checkout's cdk.out) as it is, unchanged."
)
@click.option("--services", help="Check the app with these services only, comma-separated (default: all).")
def doctor(cdk_out: Path | None, no_synth: bool, services: str | None) -> None:
    """Check every function of the app as Lambda will run it, and the template as AWS will take it.

    \b
    import   every module of each asset imports only what its asset, its layers, the Lambda
             runtime (boto3) or Python 3.13's standard library provide
    env      every environment variable the handler's code needs is set
    grant    each function's role is granted exactly what its code calls, on the resources it
             names: no call left ungranted, no grant left uncalled; logs only on its own group
    stream   each stream mapping's role may read the stream and write its failure queue; partial
             batch failures are reported; no table streams to nobody
    deploy   every route and stream mapping invokes an alias whose CodeDeploy deployment
             group rolls back on its service's Critical alarm
    cdk-nag  AwsSolutions rules compliant or acknowledged with a reason
    cfn-lint the template passes cfn-lint

    Prints one line per finding and exits with status 1 if there is any.
    """
    if no_synth:
        _check(cdk_out or repo_root() / "cdk.out")
        return
    if cdk_out is not None:
        synthesize(cdk_out, services=services)
        _check(cdk_out)
        return
    with tempfile.TemporaryDirectory(prefix="tatami-doctor-") as folder:
        synthesize(Path(folder) / "cdk.out", services=services)
        _check(Path(folder) / "cdk.out")


def _check(cdk_out: Path) -> None:
    from tatami.doctor import diagnose  # cfn-lint loads slowly: only when the command runs

    started = time.monotonic()
    findings = diagnose(cdk_out)
    for finding in findings:
        click.echo(finding.line())
    seconds = time.monotonic() - started
    if findings:
        raise click.ClickException(f"{len(findings)} findings in {cdk_out} ({seconds:.1f} s)")
    click.echo(f"no findings: the app is ready to deploy ({seconds:.1f} s)")
