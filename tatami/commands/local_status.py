"""What `tatami local status` says about a running local cloud: a dozen lines for a person, or the
whole report as JSON for scripts (`--json`).

The report is the cloud's state file (endpoints, stack outputs) and what its control endpoint answers
(`tatami.local.control`): the engines, each stream trigger's backlog, every alarm's state. The summary
keeps what a person acts on (where things listen, what is down or restarted, what is still waiting
to be delivered, what is in ALARM) and counts the rest.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from typing import Any

__all__ = ["report", "summary"]

LABEL = 16  # width of the labels' column
ALARM = "ALARM"
LISTED_ALARMS = 10  # named one per line; `tatami local alarms` lists them all


def report(state: Mapping[str, Any], engines: Any, streams: Any, alarms: Any) -> dict[str, Any]:
    """The JSON report: the state, the engines and streams as the control endpoint answers them, and
    the alarms counted per state with the names of those in ALARM.

    >>> report({"pid": 7}, {}, {}, [{"name": "a", "state": "ALARM"}, {"name": "b", "state": "OK"}])
    {'pid': 7, 'engines': {}, 'streams': {}, 'alarms': {'ALARM': 1, 'OK': 1, 'in ALARM': ['a']}}
    """
    if isinstance(alarms, list):
        counts = Counter(alarm["state"] for alarm in alarms)
        firing = [alarm["name"] for alarm in alarms if alarm["state"] == ALARM]
        alarms = {**dict(sorted(counts.items())), "in ALARM": firing}
    return {**state, "engines": engines, "streams": streams, "alarms": alarms}


def summary(status: Mapping[str, Any]) -> list[str]:
    """The lines a person reads, from `report`'s dictionary.

    >>> lines = summary({"pid": 7, "api_url": "http://127.0.0.1:3000", "outputs": {"A": "a"},
    ...     "engines": {"moto server": {"endpoint": "http://127.0.0.1:5005", "running": True, "restarts": 0}},
    ...     "streams": {}, "alarms": {"OK": 3, "in ALARM": []}})
    >>> print("\\n".join(lines))
    local cloud running (pid 7)
      API             http://127.0.0.1:3000   (OpenAPI: http://127.0.0.1:3000/openapi.json)
      moto server     http://127.0.0.1:5005   up
      stream triggers none
      alarms          3: 3 OK; none in ALARM
      stack outputs   1 (`tatami local status --json` lists them)
    """
    lines = [f"local cloud running (pid {status.get('pid', '?')})"]
    api = status.get("api_url")
    if api:
        lines.append(_line("API", f"{api}   (OpenAPI: {api}/openapi.json)"))
    if status.get("console_url"):
        lines.append(_line("console", status["console_url"]))
    lines += _engines(status.get("engines"))
    lines += _streams(status.get("streams"))
    lines += _alarms(status.get("alarms"))
    outputs = status.get("outputs") or {}
    lines.append(_line("stack outputs", f"{len(outputs)} (`tatami local status --json` lists them)"))
    return lines


def _line(label: str, text: str) -> str:
    return f"  {label:<{LABEL - 1}} {text}"


def _unavailable(label: str, answer: Any) -> list[str] | None:
    """One line when the control endpoint did not answer for this part, else None."""
    if isinstance(answer, Mapping) and set(answer) == {"unavailable"}:
        return [_line(label, f"unknown: the local cloud did not answer ({answer['unavailable']})")]
    return None


def _engines(engines: Any) -> list[str]:
    """One line per engine: its endpoint, up or DOWN, and its restarts when it had any."""
    unknown = _unavailable("engines", engines)
    if unknown is not None:
        return unknown
    lines = []
    for name, engine in (engines or {}).items():
        health = "up" if engine.get("running") else "DOWN"
        restarts = int(engine.get("restarts", 0))
        if restarts:
            health += f", restarted {_times(restarts)}"
        lines.append(_line(name, f"{engine.get('endpoint', '?')}   {health}"))
    return lines


def _streams(streams: Any) -> list[str]:
    """The stream triggers counted, what they delivered, and each one with records still waiting."""
    label = "stream triggers"
    unknown = _unavailable(label, streams)
    if unknown is not None:
        return unknown
    if not streams:
        return [_line(label, "none")]
    delivered = sum(int(s.get("records_delivered", 0)) for s in streams.values())
    waiting = {name: s for name, s in streams.items() if int(s.get("backlog_records", 0)) > 0}
    lines = [
        _line(label, f"{len(streams)}: {delivered:,} records delivered, {len(waiting) or 'none'} waiting")
    ]
    for name, stream in sorted(waiting.items()):
        backlog = f"{stream['backlog_records']:,} records"
        lines.append(_line("", f"{name} -> {stream.get('function', '?')}: {backlog}"))
    return lines


def _alarms(alarms: Any) -> list[str]:
    """The alarms counted per state, and the names of those in ALARM, one line each."""
    unknown = _unavailable("alarms", alarms)
    if unknown is not None:
        return unknown
    alarms = dict(alarms or {})
    firing = list(alarms.pop("in ALARM", []))
    total = sum(int(count) for count in alarms.values())
    counts = ", ".join(f"{count} {state}" for state, count in sorted(alarms.items()))
    lines = [_line("alarms", f"{total}: {counts or 'none'}; {len(firing) or 'none'} in ALARM")]
    lines += [_line("", f"{ALARM}: {name}") for name in firing[:LISTED_ALARMS]]
    if len(firing) > LISTED_ALARMS:
        lines.append(_line("", f"and {len(firing) - LISTED_ALARMS} more: `tatami local alarms` lists them"))
    return lines


def _times(count: int) -> str:
    return "once" if count == 1 else f"{count} times"
