"""Run one `tatami` command in this process after installing the faults in TATAMI_FAULTS (a crash plan
SIGKILLs it in the middle), acting on the local cloud given as JSON: `python cli_under_faults.py
'{"outputs": ..., "dynamodb": URL, "moto": URL}' load-ip --local FILE`."""

from __future__ import annotations

import importlib
import json
import sys

from tatami.cli import main
from tatami.local.engines.faults import install_from_environment
from tatami.target import Target

if __name__ == "__main__":
    install_from_environment()
    cloud = json.loads(sys.argv[1])
    target = Target("local", cloud["outputs"], cloud["dynamodb"], cloud["moto"])
    for command in ("load_ip", "export"):  # `--local` means this cloud, not the checkout's
        importlib.import_module(f"tatami.commands.{command}").resolve_target = lambda _local: target
    main(sys.argv[2:])
