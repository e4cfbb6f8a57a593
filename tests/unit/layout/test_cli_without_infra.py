"""The CDK app (`infra`) is not in the wheel: without it the CLI starts, every command shows its help
and the commands that act on a deployed stack run; the checkout-only ones say they need a checkout.

Run in a fresh interpreter where `infra` cannot be imported, as after `pip install tatami-*.whl`.
"""

from __future__ import annotations

import json
import subprocess
import sys
from typing import Any

import pytest

SCRIPT = r"""
import json, sys

class NoInfra:
    def find_spec(self, name, path=None, target=None):
        if name.partition(".")[0] == "infra":
            raise ModuleNotFoundError(f"No module named {name!r}", name=name)
        return None

sys.meta_path.insert(0, NoInfra())

import click
from click.testing import CliRunner
from tatami.cli import main

def commands(group, path):
    for name, command in sorted(group.commands.items()):
        yield [*path, name]
        if isinstance(command, click.Group):
            yield from commands(command, [*path, name])

def run(args):
    result = CliRunner().invoke(main, args)
    return {"args": args, "exit_code": result.exit_code, "output": result.output}

print(json.dumps({
    "help": [run([*path, "--help"]) for path in [[], *commands(main, [])]],
    "deployed": run(["olap", "--named", "orders_per_status", "--show-sql"]),
    "checkout_only": [run(["doctor", "--no-synth"]), run(["local", "status"])],
    "infra_imported": sorted(name for name in sys.modules if name.partition(".")[0] == "infra"),
}))
"""


@pytest.fixture(scope="module")
def without_infra() -> dict[str, Any]:
    found = subprocess.run([sys.executable, "-c", SCRIPT], capture_output=True, text=True, timeout=300)
    assert found.returncode == 0, found.stderr
    result: dict[str, Any] = json.loads(found.stdout)
    return result


def test_every_command_shows_its_help(without_infra: dict[str, Any]) -> None:
    helps = without_infra["help"]
    assert len(helps) > 10  # the group, its commands and their subcommands
    for shown in helps:
        assert shown["exit_code"] == 0, shown
        assert "Usage:" in shown["output"], shown


def test_a_command_for_the_deployed_stack_runs(without_infra: dict[str, Any]) -> None:
    deployed = without_infra["deployed"]
    assert deployed["exit_code"] == 0, deployed
    assert "SELECT" in deployed["output"].upper()


def test_checkout_only_commands_say_so(without_infra: dict[str, Any]) -> None:
    for refused in without_infra["checkout_only"]:
        assert refused["exit_code"] == 1, refused
        assert "run this from a checkout of tatami" in refused["output"], refused


def test_infra_is_never_imported(without_infra: dict[str, Any]) -> None:
    assert without_infra["infra_imported"] == []
