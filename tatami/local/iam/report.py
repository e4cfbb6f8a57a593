"""The least-privilege report: per function, what it called and what it was granted but never used.

Reads what the local cloud wrote under its work folder: `iam/policies.json` (every function's
compiled policies) and `iam/<function>.jsonl` (each action and resource its workers and its stream
mappings were authorized for, allowed or not). Logs and X-Ray grants are used by Lambda itself,
not by the function's code, and are left out of "never used".

For example (not run as a doctest)::

    print(render(least_privilege(Path(".local"))))
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path

from tatami.local.iam.evaluate import matches

_USED_BY_LAMBDA = ("logs:", "xray:")


@dataclass
class FunctionReport:
    function: str
    used: set[tuple[str, str]] = field(default_factory=set)
    denied: set[tuple[str, str]] = field(default_factory=set)
    unused: list[tuple[str, str]] = field(default_factory=list)  # (granted action, granted resource)


def least_privilege(work_dir: Path) -> list[FunctionReport]:
    folder = work_dir / "iam"
    policies_file = folder / "policies.json"
    if not policies_file.is_file():
        raise FileNotFoundError(f"{policies_file} not found: start the local cloud first (`make run`)")
    reports = []
    for function, policy in json.loads(policies_file.read_text()).items():
        report = FunctionReport(function)
        usage = folder / f"{function}.jsonl"
        for line in usage.read_text().splitlines() if usage.is_file() else []:
            entry = json.loads(line)
            (report.used if entry["allowed"] else report.denied).add((entry["action"], entry["resource"]))
        report.unused = _unused(policy, report.used)
        reports.append(report)
    return reports


def _unused(policy: dict[str, object], used: set[tuple[str, str]]) -> list[tuple[str, str]]:
    unused = []
    for statement in policy.get("identity", []):  # type: ignore[attr-defined]
        if statement["effect"] != "Allow":
            continue
        for action in statement.get("actions", []):
            if action.startswith(_USED_BY_LAMBDA):
                continue
            for resource in statement.get("resources", ["*"]):
                if not any(matches(action, a, ignore_case=True) and matches(resource, r) for a, r in used):
                    unused.append((action, resource))
    return sorted(set(unused))


def render(reports: list[FunctionReport]) -> str:
    """One block per function: used, refused, and granted-but-never-used lines."""
    lines = []
    for report in sorted(reports, key=lambda r: r.function):
        lines.append(
            f"{report.function}: {len(report.used)} used, {len(report.denied)} refused, "
            f"{len(report.unused)} granted but never used"
        )
        lines += [f"  used     {action:<34} {resource}" for action, resource in sorted(report.used)]
        lines += [f"  REFUSED  {action:<34} {resource}" for action, resource in sorted(report.denied)]
        unused: dict[str, list[str]] = {}
        for action, resource in report.unused:
            unused.setdefault(action, []).append(resource)
        lines += [f"  unused   {action:<34} {', '.join(resources)}" for action, resources in unused.items()]
    return "\n".join(lines)
