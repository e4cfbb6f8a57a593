"""The deployment check of `tatami doctor`: every API function and stream consumer deploys safely.

What API Gateway and a stream mapping invoke must be an alias (not the function itself, whose
`$LATEST` takes every new version at once) whose UpdatePolicy names a CodeDeploy deployment group,
and that group must stop and roll back on its service's Critical alarm
(`infra.constants.critical_alarm_name`), and never shift traffic without its state.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from infra.constants import critical_alarm_name
from tatami.doctor.checks import Finding
from tatami.local.gateway.routes import read_routes
from tatami.local.template.assembly import Assembly, Stack
from tatami_functions.common.settings import PowertoolsSettings

_SERVICE = PowertoolsSettings.name_of("service")
_ROLLBACK_EVENT = "DEPLOYMENT_STOP_ON_ALARM"


def check_deployments(assembly: Assembly) -> list[Finding]:
    findings: set[Finding] = set()
    for stack, caller, function_id, alias_id in _invocations(assembly):
        if alias_id is None:
            message = f"{caller} invokes the function itself, not an alias CodeDeploy shifts"
            findings.add(Finding("deploy", function_id, message))
            continue
        alias = assembly.aliases[alias_id]
        group = stack.template["Resources"].get(alias.deployment_group_id or "")
        if group is None or group["Type"] != "AWS::CodeDeploy::DeploymentGroup":
            message = f"its alias {alias_id} names no CodeDeploy deployment group in its UpdatePolicy"
            findings.add(Finding("deploy", function_id, message))
            continue
        service = assembly.functions[function_id].environment.get(_SERVICE, "")
        expected = critical_alarm_name(stack.name, str(service))
        for problem in _rollback_problems(group.get("Properties", {}), expected):
            findings.add(
                Finding("deploy", function_id, f"deployment group {alias.deployment_group_id} {problem}")
            )
    return sorted(findings)


def _invocations(assembly: Assembly) -> Iterator[tuple[Stack, str, str, str | None]]:
    """(stack, what invokes, function, alias or None) for every route and stream mapping."""
    for stack in assembly.stacks:
        for route in read_routes(stack):
            if route.function_id:
                yield stack, f"{route.method} {route.resource_path}", route.function_id, route.alias_id
    for mapping in assembly.stream_mappings:
        stack = next(s for s in assembly.stacks if mapping.logical_id in s.template["Resources"])
        yield stack, f"stream mapping {mapping.logical_id}", mapping.function_id, mapping.alias_id


def _rollback_problems(props: dict[str, Any], critical: str) -> list[str]:
    alarms = props.get("AlarmConfiguration", {})
    names = [alarm.get("Name") for alarm in alarms.get("Alarms", [])]
    rollback = props.get("AutoRollbackConfiguration", {})
    problems = []
    if not alarms.get("Enabled") or critical not in names:
        problems.append(f"does not stop on the service's Critical alarm {critical}")
    if alarms.get("IgnorePollAlarmFailure"):
        problems.append("goes on when it cannot read its alarms' state")
    if not rollback.get("Enabled") or _ROLLBACK_EVENT not in rollback.get("Events", []):
        problems.append(f"does not roll back on {_ROLLBACK_EVENT}")
    return problems
