"""The alarm checks of `tatami doctor`: every alarm can reach ALARM under the schedule of the functions
that feed it, and the alarms of a stage someone operates reach a person.

An alarm's metrics are fed by functions: an AWS/Lambda metric by the function it names, a custom
metric by the functions of its `service` that print to its namespace (Powertools' environment). A
function that only a schedule invokes (`rate(...)`, no route, no stream) produces a datapoint at most
once per interval, so an alarm that needs more breaching periods in its evaluation window than that
(and whose missing periods do not breach) can never fire. A function driven by requests or streams
can produce one every period: its alarms are not limited here.

A stage other than a developer's (`stack_outputs.is_dev_stage`, from the stack's name) must route
every alarm to someone: a subscribed topic or an outside topic, directly or through a composite alarm.
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterator
from typing import Any

from tatami.doctor.checks import Finding
from tatami.doctor.offline import offline_resolver
from tatami.local.cloudwatch.alarm_eval import breaches_when_missing
from tatami.local.cloudwatch.alarm_specs import MetricStat, read_alarms
from tatami.local.engines import provision
from tatami.local.gateway.routes import read_routes
from tatami.local.template.assembly import Assembly, Stack, target_id
from tatami_functions.common.settings import PowertoolsSettings
from tatami_functions.stack_outputs import is_dev_stage, stage_of

_RATE = re.compile(r"rate\((\d+) (minute|minutes|hour|hours|day|days)\)")
_UNIT_SECONDS = {"minute": 60, "hour": 3600, "day": 86_400}


def check_alarms(assembly: Assembly) -> list[Finding]:
    return [*_unreachable(assembly), *_unrouted(assembly)]


def _unreachable(assembly: Assembly) -> Iterator[Finding]:
    intervals = _scheduled_only(assembly)
    by_name = {spec.name: logical_id for logical_id, spec in assembly.functions.items()}
    resolver = offline_resolver(assembly)
    provision.resolve_outputs(assembly, resolver)  # the alarms name the watched stack's outputs
    for spec in read_alarms(assembly, resolver):
        fed = [_feeders(assembly, by_name, metric) for metric in spec.metrics]
        if not fed or any(not feeders or not feeders <= intervals.keys() for feeders in fed):
            continue  # a metric fed by requests, streams or AWS itself: any period can have a datapoint
        every = min(intervals[function] for feeders in fed for function in feeders)
        runs = min(spec.evaluation_periods, math.ceil(spec.evaluation_periods * spec.period / every))
        possible = spec.evaluation_periods if breaches_when_missing(spec) else runs
        if possible < spec.datapoints_to_alarm:
            feeders = ", ".join(sorted({f for feeders in fed for f in feeders}))
            yield Finding(
                "alarm",
                spec.name,
                f"needs {spec.datapoints_to_alarm} of {spec.evaluation_periods} periods of {spec.period} s, "
                f"but {feeders} runs every {every} s: at most {runs} period(s) with data, so it never fires",
            )


def _scheduled_only(assembly: Assembly) -> dict[str, int]:
    """Function logical id -> the shortest interval of the schedules invoking it, for the functions that
    nothing else invokes (no route, no stream mapping)."""
    driven = {mapping.function_id for mapping in assembly.stream_mappings} | {
        route.function_id for stack in assembly.stacks for route in read_routes(stack) if route.function_id
    }
    intervals: dict[str, int] = {}
    for rule in assembly.rules:
        found = _RATE.fullmatch(rule.schedule or "")
        if found is None:
            continue  # cron and event patterns: no interval to judge by
        seconds = int(found[1]) * _UNIT_SECONDS[found[2].removesuffix("s")]
        for function_id, _input in rule.targets:
            if function_id not in driven:
                intervals[function_id] = min(seconds, intervals.get(function_id, seconds))
    return intervals


def _feeders(assembly: Assembly, by_name: dict[str, str], metric: MetricStat) -> set[str]:
    """The functions whose invocations produce `metric`'s datapoints (none known: empty)."""
    dimensions = dict(metric.dimensions)
    if metric.namespace == "AWS/Lambda" and "FunctionName" in dimensions:
        return {by_name[dimensions["FunctionName"]]} if dimensions["FunctionName"] in by_name else set()
    if metric.namespace.startswith("AWS/") or "service" not in dimensions:
        return set()
    return {
        logical_id
        for logical_id, spec in assembly.functions.items()
        if spec.environment.get(PowertoolsSettings.name_of("service")) == dimensions["service"]
        and spec.environment.get(PowertoolsSettings.name_of("metrics_namespace")) == metric.namespace
    }


def _unrouted(assembly: Assembly) -> Iterator[Finding]:
    for stack in assembly.stacks:
        stage = stage_of(stack.name)
        alarms = dict(stack.resources("AWS::CloudWatch::Alarm", "AWS::CloudWatch::CompositeAlarm"))
        if is_dev_stage(stage) or not alarms:
            continue
        reached = _reaching(stack, alarms)
        silent = sorted(set(alarms) - reached)
        if len(silent) == len(alarms):
            yield Finding(
                "alarm",
                stack.name,
                f"stage {stage!r}: none of its {len(alarms)} alarms reaches anyone (no topic they notify has "
                "a subscriber): set alarmEmail or alarmDestinations in cdk.json's tatami context",
            )
            continue
        for logical_id in silent:
            yield Finding(
                "alarm", logical_id, f"stage {stage!r}: notifies no one, directly or through a composite"
            )


def _reaching(stack: Stack, alarms: dict[str, dict[str, Any]]) -> set[str]:
    """The alarms whose actions reach a person: a subscribed topic of the stack, an outside topic, or a
    composite alarm that reaches one and watches them."""
    subscribed = {
        target_id(props.get("TopicArn")) for _id, props in stack.resources("AWS::SNS::Subscription")
    }

    def notifies(props: dict[str, Any]) -> bool:
        actions = props.get("AlarmActions") or []
        return any(isinstance(a, str) or target_id(a) in subscribed for a in actions)

    reached = {logical_id for logical_id, props in alarms.items() if notifies(props)}
    for logical_id, props in alarms.items():
        if logical_id in reached and "AlarmRule" in props:
            reached |= set(_watched(props["AlarmRule"]))
    return reached


def _watched(rule: Any) -> Iterator[str]:
    """The alarms a composite's rule names (`Fn::GetAtt [id, Arn]` inside its `Fn::Join`)."""
    if isinstance(rule, dict):
        if (found := target_id(rule, "Arn")) is not None:
            yield found
        for value in rule.values():
            yield from _watched(value)
    elif isinstance(rule, list):
        for value in rule:
            yield from _watched(value)
