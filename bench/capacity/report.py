"""The tables a capacity run prints: what ran, how long each phase took, throughput and latency, every route's
answers (refusals apart from errors), each process's CPU and memory, database connections, queue depths, and
the invariants."""

from __future__ import annotations

import inspect
import os
from collections.abc import Iterable, Sequence

from platform_kit.db import Database

from capacity.metrics import BACK_TO_THE_PLAYER, TO_THE_TABLE, Meter, over_time, quantiles
from capacity.run import TIMELINE_SECONDS, CapacityResult

SERIES = (
    "action",
    "action, human pace",
    "action, fast pace",
    TO_THE_TABLE,
    BACK_TO_THE_PLAYER,
    "registration",
    "coupon",
    "sign-up",
    "deposit",
)
QUEUES_SHOWN = 12
PROBLEMS_SHOWN = 5


def table(headers: Sequence[str], rows: Iterable[Sequence[object]]) -> list[str]:
    """Left-aligned first column, the others right-aligned, each as wide as its widest cell."""
    cells = [[str(h) for h in headers], *[[_cell(value) for value in row] for row in rows]]
    widths = [max(len(row[i]) for row in cells) for i in range(len(headers))]
    return [
        "  ".join(c.ljust(w) if i == 0 else c.rjust(w) for i, (c, w) in enumerate(zip(row, widths, strict=True)))
        for row in cells
    ]


def _cell(value: object) -> str:
    if isinstance(value, float):
        return f"{value:,.1f}" if abs(value) >= 100 else f"{value:.2f}"
    if isinstance(value, int):
        return f"{value:,}"
    return str(value)


def render(result: CapacityResult) -> str:
    o = result.options
    lines = [
        f"capacity run {result.name} (seed {o.seed}): {o.describe()}",
        f"platform: {o.shards} table-engine shards, {o.gateways} gateway instances sharing one port (SO_REUSEPORT); "
        f"{o.processes} load-generator process(es) with {o.bots} bots. The load generators, the coordinator, "
        f"PostgreSQL and RabbitMQ share the machine's {os.cpu_count()} cores with the platform.",
        "",
        *table(("phase", "at s"), result.timings.items()),
        f"whole run {result.seconds:.1f} s",
        "",
        *_play(result),
        "",
        *_latencies(result.meter),
        "",
        *_action_timeline(result),
        "",
        *_routes(result.meter),
        "",
        *_machine(result),
        "",
        *_invariants(result),
    ]
    return "\n".join(lines)


def _play(result: CapacityResult) -> list[str]:
    engine, meter = result.engine, result.meter
    seconds = engine.get("seconds") or 0.0
    actions = meter.counts.get("actions sent", 0)
    played: list[tuple[str, object]] = [
        ("tables", engine.get("tables", 0)),
        ("hands completed", engine.get("hands completed", 0)),
        ("hands voided", engine.get("hands voided", 0)),
        ("hands per second", engine.get("hands per second", 0.0)),
        ("actions sent by the bots", actions),
        ("actions per second", actions / seconds if seconds else 0.0),
    ]
    rows: list[tuple[str, object]] = [
        ("players signed up", len(meter.series.get("sign-up", []))),
        *(played if engine.get("tables") else []),  # a toto-rush plays no hand
        *sorted((name, n) for name, n in meter.counts.items() if name != "actions sent"),
    ]
    return table(("play", "value"), rows)


def _latencies(meter: Meter) -> list[str]:
    rows = [
        (name, len(values), *_milliseconds(values), meter.rate(name))
        for name in SERIES
        if (values := meter.series.get(name, []))
    ]
    return table(("latency (ms)", "count", "p50", "p95", "p99", "max", "per s"), rows)


def _action_timeline(result: CapacityResult) -> list[str]:
    """Where in the run the slow actions came (a burst: the start, a level, a break; or all along), and on which
    half of their way: to the table, or back to the player."""
    halves = [
        dict(over_time(result.meter, half, result.started, TIMELINE_SECONDS))
        for half in (TO_THE_TABLE, BACK_TO_THE_PLAYER)
    ]
    rows = [
        (
            f"{start:.0f}-{start + TIMELINE_SECONDS:.0f}",
            len(values),
            *_milliseconds(values),
            *(quantiles(half[start])["p99"] * 1000 if start in half else "" for half in halves),
        )
        for start, values in over_time(result.meter, "action", result.started, TIMELINE_SECONDS)
    ]
    headers = ("action latency (ms) by run time (s)", "count", "p50", "p95", "p99", "max", "p99 to", "p99 back")
    return table(headers, rows) if rows else []


def _milliseconds(seconds: list[float]) -> list[float]:
    """p50, p95, p99 and max of a non-empty series, in milliseconds."""
    q = quantiles(seconds)
    return [q[k] * 1000 for k in ("p50", "p95", "p99", "max")]


def _routes(meter: Meter) -> list[str]:
    rows = []
    for name, s in sorted(meter.routes.items(), key=lambda item: -item[1].attempts):
        q = quantiles(s.seconds)
        p50, p99 = (q["p50"] * 1000, q["p99"] * 1000) if q else (0.0, 0.0)
        statuses = " ".join(f"{code}×{n}" for code, n in [*sorted(s.statuses.items()), *sorted(s.failures.items())])
        rows.append((name, s.attempts, s.ok, s.client_errors, s.server_errors, s.timeouts, s.transport_errors,
                     s.refused, p50, p99, statuses))  # fmt: skip
    headers = (
        "route (bots)", "attempts", "2xx", "4xx", "5xx", "timeouts", "other", "refused", "p50 ms", "p99 ms", "errors",
    )  # fmt: skip
    problems = [(name, answer, n) for name, s in sorted(meter.routes.items()) for answer, n in s.problems.most_common()]
    return [
        *table(headers, rows),
        "refused: 429, or 503 with Retry-After, waited out and sent again (not errors)",
        "",
        *(table(("route (bots)", "answer: status and problem code", "count"), problems) if problems else []),
    ]


def pool_ceiling(processes: int) -> int:
    """The connections the services' pools may open together (`platform_kit.db.Database`: at most `pool_size`
    per process)."""
    return processes * inspect.signature(Database.__init__).parameters["pool_size"].default


def _machine(result: CapacityResult) -> list[str]:
    s = result.samples
    services = result.options.shards + result.options.gateways + 4  # and one each of the other four services
    processes = [(name, use.cpu_seconds, use.peak_rss_kib / 1024) for name, use in sorted(s.processes.items())]
    servers = [(f"{name} (whole server)", cpu, "") for name, cpu in sorted(s.servers.items())]
    databases = [(name, use.peak_open, use.peak_busy) for name, use in sorted(s.databases.items())]
    queues = sorted(s.queues.items(), key=lambda item: -(item[1].peak_ready + item[1].peak_unacked))
    queue_rows = [(n, q.peak_ready, q.peak_unacked, q.consumers) for n, q in queues[:QUEUES_SHOWN]]
    return [
        *table(("process", "cpu s", "peak rss MB"), [*processes, *servers]),
        "",
        *table(("database", "peak connections open", "peak in use"), databases),
        f"PostgreSQL max_connections {s.max_connections} (shared with anyone else using the server); the "
        f"{services} service processes may pool up to {pool_ceiling(services)}",
        "",
        *table(("queue", "peak ready", "peak unacked", "consumers"), queue_rows),
        f"peak backlog over every queue (consumer lag, messages): {s.peak_backlog:,}",
        *(f"sampling failed: {error}" for error in s.errors),
    ]


def _invariants(result: CapacityResult) -> list[str]:
    lines = ["invariants:"]
    for name, problems in result.problems.items():
        lines.append(f"  {name:<10} {'ok' if not problems else f'{len(problems)} problem(s)'}")
        lines += [f"      {problem}" for problem in problems[:PROBLEMS_SHOWN]]
    if result.facts:
        lines.append(f"facts: {result.facts}")
    if result.log_warnings:
        lines += ["service warnings:", *(f"  {line}" for line in result.log_warnings[:10])]
    if result.error:
        lines.append(f"run failed: {result.error}")
    lines.append(f"{'FAILED' if result.failed else 'passed'}; logs and summary.json in {result.run_dir}")
    return lines
