"""`tatami doctor`: check, from the synthesized app, that what runs locally will run after `cdk deploy`."""

from __future__ import annotations

import time
from pathlib import Path

import click

from tatami.checkout import repo_root
from tatami.commands.local import synthesize


@click.command()
@click.option(
    "--cdk-out",
    type=click.Path(path_type=Path),
    show_default="cdk.out in the checkout",
    help="Cloud assembly to check.",
)
@click.option("--no-synth", is_flag=True, help="Check --cdk-out as it is instead of synthesizing first.")
def doctor(cdk_out: Path | None, no_synth: bool) -> None:
    """Check every function of the app as Lambda will run it, and the template as AWS will take it.

    \b
    import   every module of each asset imports only what its asset, its layers, the Lambda
             runtime (boto3) or Python 3.14's standard library provide
    env      every environment variable the handler's code needs is set
    grant    every table, queue, bucket and secret a function names is granted to what it calls
    stream   each stream mapping's role may read the stream and write its failure queue; partial
             batch failures are reported; no table streams to nobody
    cdk-nag  AwsSolutions rules compliant or suppressed with a reason
    cfn-lint the template passes cfn-lint

    Prints one line per finding and exits with status 1 if there is any.
    """
    from tatami.doctor import diagnose  # cfn-lint loads slowly: only when the command runs

    cdk_out = cdk_out or repo_root() / "cdk.out"
    if not no_synth:
        synthesize(cdk_out)
    started = time.monotonic()
    findings = diagnose(cdk_out)
    for finding in findings:
        click.echo(finding.line())
    seconds = time.monotonic() - started
    if findings:
        raise click.ClickException(f"{len(findings)} findings in {cdk_out} ({seconds:.1f} s)")
    click.echo(f"no findings: {cdk_out} is ready to deploy ({seconds:.1f} s)")
