"""A report as text (a partition table and sparklines) and, when matplotlib is installed, a PNG chart."""

from __future__ import annotations

import csv
from collections.abc import Sequence
from pathlib import Path

from tatami.capacity.model.prices import Prices
from tatami.capacity.model.space import ACC_R, ACC_W, THR_R, THR_W
from tatami.capacity.reports.ranges import Ranges
from tatami.capacity.reports.report import Report

__all__ = [
    "ChartUnavailableError",
    "partition_table",
    "render",
    "render_ranges",
    "sparkline",
    "write_csv",
    "write_png",
]

BARS = " ▁▂▃▄▅▆▇█"
WIDTH = 60
PNG_PARTITIONS = 8  # the busiest partitions drawn one by one
CSV_COLUMNS = (
    "accepted_write_units",
    "throttled_write_units",
    "accepted_read_units",
    "throttled_read_units",
    "accepted_requests",
    "throttled_requests",
)
SPARKLINES = 6  # key spaces shown as sparklines, the most throttled first


class ChartUnavailableError(RuntimeError):
    """matplotlib is not installed; everything but the PNG works without it."""


def sparkline(values: Sequence[float], width: int = WIDTH, top: float | None = None) -> str:
    """`values` squeezed into `width` bars (each the mean of its slice), scaled to `top`.

    >>> sparkline([0, 1, 2, 3, 4, 5, 6, 7, 8])
    ' ▁▂▃▄▅▆▇█'
    """
    if not values:
        return ""
    step = max(1, -(-len(values) // width))
    means = [sum(values[i : i + step]) / len(values[i : i + step]) for i in range(0, len(values), step)]
    highest = top or max(means) or 1.0
    return "".join(BARS[min(len(BARS) - 1, round(mean / highest * (len(BARS) - 1)))] for mean in means)


def partition_table(report: Report, limit: int = 20) -> str:
    """The most throttled partitions first: keys, hottest key, units, peak share of the allowance."""
    header = (
        f"{'partition':40} {'keys':>6} {'hottest key':24} {'share':>6} "
        f"{'units/s':>8} {'peak':>6} {'throttled':>10} {'thr. s':>7}"
    )
    lines = [header]
    seconds = max(report.seconds, 1)
    ordered = sorted(report.partitions, key=lambda line: (-line.throttled, -line.accepted))
    for line in ordered[:limit]:
        lines.append(
            f"{_short(line.name, 40):40} {line.keys:>6,} {line.top_key[:24]:24} {line.top_share:>6.0%} "
            f"{line.accepted / seconds:>8,.0f} {line.peak:>6.0%} {line.throttled:>10,.0f} "
            f"{line.throttled_seconds:>7,}"
        )
    if len(ordered) > limit:
        lines.append(f"... and {len(ordered) - limit} more partitions")
    return "\n".join(lines)


def _short(text: str, width: int) -> str:
    return text if len(text) <= width else "…" + text[-(width - 1) :]


def render(report: Report, spaces: int = SPARKLINES) -> str:
    """What a terminal shows of a run: what ran, the partition table, sparklines, the verdict."""
    lines = [
        f"{report.workload}: {report.capacity}, {report.seconds:,} s simulated",
        f"client: {report.client}; reading: {report.choices}",
    ]
    lines.append(partition_table(report))
    busiest = sorted(report.series, key=lambda space: _burden(report.series[space]), reverse=True)
    for space in busiest[:spaces]:
        lines += _sparklines(space, report)
    if len(busiest) > spaces:
        lines.append(f"... and {len(busiest) - spaces} quieter tables and indexes")
    lines.append(str(report.verdict))
    lines.append(_load_time(report))
    prices = Prices()
    lines.append(f"cost, sustained ({prices.region} list prices of {prices.as_of}): {report.cost.text}")
    return "\n".join(line for line in lines if line)


def _load_time(report: Report) -> str:
    """A bulk load's time beside the time at its pace (what throttling cost it); nothing for callers."""
    if report.shape is None:
        return ""
    ideal = report.items / report.shape.pace
    return f"the load took {report.duration:,.1f} s; at its threads' pace, unthrottled: {ideal:,.1f} s"


def render_ranges(ranges: Ranges, spaces: int = SPARKLINES) -> str:
    """The main run in detail, then every figure as a range over the runs."""
    return f"{render(ranges.main, spaces)}\n{ranges.describe()}"


def _burden(rows: Sequence[tuple[float, ...]]) -> tuple[float, float]:
    return sum(row[THR_W] + row[THR_R] for row in rows), sum(row[ACC_W] + row[ACC_R] for row in rows)


def _sparklines(space: str, report: Report) -> list[str]:
    accepted = [row[ACC_W] + row[ACC_R] for row in report.series[space]]
    throttled = [row[THR_W] + row[THR_R] for row in report.series[space]]
    top = max(max(accepted, default=0.0), max(throttled, default=0.0)) or 1.0
    lines = [
        f"{space}",
        f"  accepted  |{sparkline(accepted, top=top)}| peak {max(accepted, default=0.0):,.0f} units/s",
        f"  throttled |{sparkline(throttled, top=top)}| {sum(throttled):,.0f} units",
    ]
    splits = report.splits.get(space, [])
    if splits:
        kinds = ", ".join(sorted({split.reason for split in splits}))
        lines.append(f"  {len(splits)} partition splits ({kinds}), the first after {splits[0].second} s")
    return lines


def write_png(report: Report, path: Path) -> Path:
    """Accepted units per second of every partition, and the throttled total, as a PNG."""
    try:
        import matplotlib

        matplotlib.use("Agg")
        from matplotlib import pyplot
    except ImportError as exc:
        raise ChartUnavailableError(
            "the PNG chart needs matplotlib (pip install matplotlib); the table and sparklines do not"
        ) from exc
    figure, (total, parts) = pyplot.subplots(2, 1, figsize=(10, 7), sharex=True)
    seconds = list(range(report.seconds))
    for space, rows in report.series.items():
        total.plot(seconds, [row[ACC_W] + row[ACC_R] for row in rows], label=f"{space} accepted")
        total.plot(seconds, [row[THR_W] + row[THR_R] for row in rows], ":", label=f"{space} throttled")
    busiest = sorted(report.partitions, key=lambda line: -(line.accepted + line.throttled))[:PNG_PARTITIONS]
    for line in busiest:
        accepted = [sum(line.series.get(second, (0.0,) * 6)[0:4:2]) for second in seconds]
        parts.plot(seconds, accepted, linewidth=0.8, label=f"{line.name} ({line.top_key[:16]})")
    total.set_ylabel("units / s, in total")
    parts.set_ylabel("units / s, per partition")
    parts.set_xlabel("second")
    total.set_title(str(report.verdict)[:120], fontsize=8)
    total.legend(fontsize=7)
    parts.legend(fontsize=6, ncol=2)
    figure.tight_layout()
    figure.savefig(path, dpi=100)
    pyplot.close(figure)
    return path


def write_csv(report: Report, path: Path) -> Path:
    """Units and requests, accepted and throttled, per second: per partition and in total."""
    with path.open("w", newline="") as out:
        writer = csv.writer(out)
        writer.writerow(["second", "partition", *CSV_COLUMNS])
        for space, rows in report.series.items():
            for second, row in enumerate(rows):
                writer.writerow([second, f"{space}/total", *row[:6]])
        for line in report.partitions:
            for second, row in sorted(line.series.items()):
                writer.writerow([second, line.name, *row[:6]])
    return path
