"""The alarms of a synthesized monitoring stack as tests read them: what each one watches, with every
dimension value named as the resource it stands for (a literal, or a stack's logical id)."""

from __future__ import annotations

from typing import Any

from tests.support.synthesis import Synthesized

Alarm = dict[str, Any]
Series = tuple[str, str, tuple[tuple[str, str], ...]]  # namespace, metric, (dimension, what it names)


def alarms(synthesized: Synthesized, kind: str = "AWS::CloudWatch::Alarm") -> dict[str, Alarm]:
    """Logical id -> properties of every alarm (or composite alarm) of the monitoring stack."""
    resources = synthesized.monitoring["Resources"]
    return {k: r["Properties"] for k, r in resources.items() if r["Type"] == kind}


def named(synthesized: Synthesized, value: Any) -> str:
    """What a dimension value stands for: a literal as it is, a reference as `<stack>:<logical id>`
    (through the service stack's output for a weak cross-stack reference)."""
    monitoring = f"{synthesized.name}Monitoring"
    if isinstance(value, dict) and "Fn::GetStackOutput" in value:
        reference = value["Fn::GetStackOutput"]
        output = synthesized.template["Outputs"][reference["OutputName"]]["Value"]
        return f"{reference['StackName']}:{output.get('Ref') or output['Fn::GetAtt'][0]}"
    if isinstance(value, dict) and ("Ref" in value or "Fn::GetAtt" in value):
        return f"{monitoring}:{value.get('Ref') or value['Fn::GetAtt'][0]}"
    assert isinstance(value, str), value
    return value


def stats(alarm: Alarm) -> list[dict[str, Any]]:
    """The alarm's metric stats: `Metric`, `Stat`, `Period` (one for a single-metric alarm)."""
    if "Metrics" not in alarm:
        return [
            {
                "Metric": alarm,
                "Stat": alarm.get("Statistic") or alarm.get("ExtendedStatistic"),
                "Period": alarm["Period"],
            }
        ]
    return [dict(m["MetricStat"]) for m in alarm["Metrics"] if "MetricStat" in m]


def expression(alarm: Alarm) -> str | None:
    (returned,) = [m for m in alarm.get("Metrics", [{}]) if m.get("ReturnData", True)]
    return returned.get("Expression")


def series(synthesized: Synthesized, alarm: Alarm) -> list[Series]:
    """Every metric series the alarm reads."""
    return [
        (
            stat["Metric"]["Namespace"],
            stat["Metric"]["MetricName"],
            tuple(
                sorted(
                    (d["Name"], named(synthesized, d["Value"])) for d in stat["Metric"].get("Dimensions", [])
                )
            ),
        )
        for stat in stats(alarm)
    ]


def on(synthesized: Synthesized, metric: str) -> dict[tuple[str, ...], Alarm]:
    """The alarms reading `metric` as their first series of that name, keyed by its dimension values
    (`<stack>:<logical id>` or literals, sorted by dimension name); two alarms on one key fail."""
    found: dict[tuple[str, ...], Alarm] = {}
    for alarm in alarms(synthesized).values():
        mine = [dimensions for _, name, dimensions in series(synthesized, alarm) if name == metric]
        if mine:
            key = tuple(value for _, value in mine[0])
            assert key not in found, f"two alarms on {metric} {key}"
            found[key] = alarm
    return found


def services(synthesized: Synthesized) -> set[str]:
    """The services of the stack's functions (their POWERTOOLS_SERVICE_NAME: the service package)."""
    return {
        f["Properties"]["Environment"]["Variables"]["POWERTOOLS_SERVICE_NAME"]
        for f in synthesized.resources("AWS::Lambda::Function").values()
    }


def ids(synthesized: Synthesized, resource_type: str) -> set[tuple[str, ...]]:
    """The service stack's resources of a type, as `on` keys them."""
    return {(f"{synthesized.name}:{logical_id}",) for logical_id in synthesized.resources(resource_type)}
