"""The local cloud's side of the sandbox: each function's runtime file, and the mappings' IAM checks.

`Sandbox` builds the runtime folders once (runtime.py), compiles each function's policies from the
template (iam/policies.py) and writes, per function, the runtime file its workers read at start
(enter.py): the import path (asset, layers, emulated public layers, the runtime's boto3), the IAM
mode, the compiled policies and the usage file. It also answers, with the same policies, whether
an event-source mapping may read its stream and write its on-failure queue: Lambda checks that with
the function's role when the mapping is created.
"""

from __future__ import annotations

import json
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from tatami.local.functions.sandbox.runtime import Runtime
from tatami.local.iam.evaluate import evaluate, matches
from tatami.local.iam.guard import ENFORCE
from tatami.local.iam.policies import compile_policies
from tatami.local.template.assembly import Assembly, FunctionSpec, Stack
from tatami.local.template.intrinsics import LOCAL_ACCOUNT, LOCAL_REGION, Resolver

# Workers' bytecode, never in the assets: one folder in the venv, so every local cloud of this venv
# (each test session's too) reuses what the first compiled instead of compiling at every cold start.
PYCACHE = str(Path(sys.prefix) / "pycache")
STREAM_READS = ("dynamodb:DescribeStream", "dynamodb:GetRecords", "dynamodb:GetShardIterator")


@dataclass
class Sandbox:
    assembly: Assembly
    resolver: Resolver
    work_dir: Path
    iam_mode: str = ENFORCE
    runtime: Runtime = field(init=False)
    policies: dict[str, dict[str, Any]] = field(default_factory=dict)

    def __post_init__(self) -> None:
        layers = (layer for spec in self.assembly.functions.values() for layer in spec.layer_dirs)
        self.runtime = Runtime.build(self.work_dir, layers)
        self.folder = self.work_dir / "iam"
        self.folder.mkdir(parents=True, exist_ok=True)
        for old in self.folder.glob("*.jsonl"):
            old.unlink()  # usage of a previous run of the local cloud
        for function_id in self.assembly.functions:
            self.policies[function_id] = compile_policies(
                self._stack_of(function_id), self.resolver, function_id
            )
        (self.folder / "policies.json").write_text(json.dumps(self.policies, indent=1))

    def usage_file(self, function_id: str) -> Path:
        return self.folder / f"{function_id}.jsonl"

    def runtime_file(self, spec: FunctionSpec, function_arn: str) -> Path:
        """Write the file `enter.py` reads in each worker of `spec`; returns its path."""
        sys_path = self.runtime.import_path(spec.code_dir, spec.layer_dirs, spec.external_layers)
        policy = self.policies[spec.logical_id]
        iam = {
            "mode": self.iam_mode,
            "policy": policy,
            "region": LOCAL_REGION,
            "account": LOCAL_ACCOUNT,
            "session_arn": _session_arn(policy["principal"], spec.name),
            "usage_file": str(self.usage_file(spec.logical_id)),
        }
        path = self.work_dir / "runtime" / f"{spec.logical_id}.json"
        config = {"sys_path": sys_path, "function_arn": function_arn, "iam": iam}
        path.write_text(json.dumps({**config, "pycache_prefix": PYCACHE}))
        return path

    def may_call(self, function_id: str, action: str) -> bool:
        """Whether the function's role allows `action` on some resource (conditions aside)."""
        return any(
            matches(pattern, action, ignore_case=True)
            for statement in self.policies[function_id]["identity"]
            if statement["effect"] == "Allow"
            for pattern in statement.get("actions", ())
        )

    def refusals(self, function_id: str, checks: list[tuple[str, str]]) -> list[str]:
        """The (action, resource) pairs the function's role may not do, as messages; [] if all allowed.

        Records each check in the function's usage file (the least-privilege report counts them).
        """
        policy, refused = self.policies[function_id], []
        with self.usage_file(function_id).open("a", encoding="utf-8") as usage:
            for action, resource in checks:
                decision = evaluate(policy, action, resource, {"aws:securetransport": "true"})
                usage.write(json.dumps({"action": action, "resource": resource, "allowed": decision.allowed}))
                usage.write("\n")
                if not decision.allowed:
                    refused.append(f"{action} on {resource} {decision.reason}")
        return refused

    def mapping_refusals(self, function_id: str, stream_arn: str, queue_arn: str | None) -> list[str]:
        """What Lambda would refuse when creating a stream mapping for the function (its role's rights)."""
        checks = [(action, stream_arn) for action in STREAM_READS]
        checks += [("sqs:SendMessage", queue_arn)] if queue_arn else []
        return self.refusals(function_id, checks)

    def _stack_of(self, function_id: str) -> Stack:
        return next(s for s in self.assembly.stacks if function_id in s.template.get("Resources", {}))


def _session_arn(role_arn: str, function_name: str) -> str:
    """The caller identity AWS names in AccessDenied messages: the role's session for the function."""
    role_name = role_arn.rsplit("/", 1)[-1]
    return f"arn:aws:sts::{LOCAL_ACCOUNT}:assumed-role/{role_name}/{function_name}"
