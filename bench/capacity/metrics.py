"""What the bots measure, per load-generator process, merged by the coordinator: per route the answers by class
(refusals with Retry-After apart from errors) and their latency, named latency series (an action from its POST
to its `table.action.taken` on the bot's socket, a registration, a coupon) and named counters."""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass, field

#: Collections whose next path segment is an id: `/tables/t-1.0.3/actions` is the route `/tables/{id}/actions`.
_ID_AFTER = frozenset({"tournaments", "tables", "players", "draws", "hands", "coupons", "matches", "accounts"})
_NOT_IDS = frozenset({"me"})
_API_PREFIX = re.compile(r"^/api/v\d+")


def route_of(method: str, path: str) -> str:
    parts = _API_PREFIX.sub("", path).strip("/").split("/")
    shown = [
        "{id}" if index and parts[index - 1] in _ID_AFTER and part not in _NOT_IDS else part
        for index, part in enumerate(parts)
    ]
    return f"{method} /{'/'.join(shown)}"


@dataclass
class RouteStats:
    """Every attempt on one route. `refused`: a 429 or 503 with Retry-After, waited out and sent again."""

    ok: int = 0
    client_errors: int = 0
    server_errors: int = 0
    timeouts: int = 0
    transport_errors: int = 0
    refused: int = 0
    seconds: list[float] = field(default_factory=list)
    #: The 4xx and 5xx answers by status code (502/503/504 from the gateway: the service behind it was away or
    #: too slow; 500: a failure).
    statuses: Counter[int] = field(default_factory=Counter)
    #: Timeouts and other transport errors by exception (`ReadTimeout`, `RemoteProtocolError` …).
    failures: Counter[str] = field(default_factory=Counter)
    #: Every 4xx/5xx answer, refusals included, by status and problem code (`503 wallet_unavailable`): what an
    #: SRE reads to learn which dependency shed the load.
    problems: Counter[str] = field(default_factory=Counter)

    @property
    def attempts(self) -> int:
        return self.ok + self.client_errors + self.server_errors + self.timeouts + self.transport_errors + self.refused

    def as_json(self) -> dict[str, object]:
        """Counts only (`dataclasses.asdict` would rebuild the Counters from their items, as tuples)."""
        counts = ("ok", "client_errors", "server_errors", "timeouts", "transport_errors", "refused")
        return {
            **{name: getattr(self, name) for name in counts},
            "statuses": dict(self.statuses),
            "failures": dict(self.failures),
            "problems": dict(self.problems),
            "latency_seconds": quantiles(self.seconds),
        }

    def answered(self, status: int, seconds: float) -> None:
        if status >= 400:
            self.statuses[status] += 1
        if status >= 500:
            self.server_errors += 1
        elif status >= 400:
            self.client_errors += 1
        else:
            self.ok += 1
        self.seconds.append(seconds)

    def merge(self, other: RouteStats) -> None:
        self.ok += other.ok
        self.client_errors += other.client_errors
        self.server_errors += other.server_errors
        self.timeouts += other.timeouts
        self.transport_errors += other.transport_errors
        self.refused += other.refused
        self.seconds += other.seconds
        self.statuses.update(other.statuses)
        self.failures.update(other.failures)
        self.problems.update(other.problems)


#: The action latency's two halves (bot.py): from the bot's send to the engine's applying the action (the
#: event's `occurred_at`), and from there to the event's arrival on the bot's socket.
TO_THE_TABLE = "action: to the table"
BACK_TO_THE_PLAYER = "action: back to the player"


@dataclass
class Meter:
    routes: dict[str, RouteStats] = field(default_factory=dict)
    series: dict[str, list[float]] = field(default_factory=dict)
    #: name → how many: actions sent, timeouts, socket reconnects, refused actions …
    counts: Counter[str] = field(default_factory=Counter)
    #: name → (first, last) monotonic instants of the series' samples, for its throughput.
    spans: dict[str, tuple[float, float]] = field(default_factory=dict)
    #: name → the monotonic instant each sample was taken at, in the order of `series[name]`: when in the run
    #: the slow ones came (a burst, or all along).
    instants: dict[str, list[float]] = field(default_factory=dict)

    def route(self, name: str) -> RouteStats:
        stats = self.routes.get(name)
        if stats is None:
            stats = self.routes[name] = RouteStats()
        return stats

    def sample(self, name: str, seconds: float, at: float) -> None:
        """A latency of series `name`, taken at monotonic instant `at` (its end)."""
        self.series.setdefault(name, []).append(seconds)
        self.instants.setdefault(name, []).append(at)
        first, last = self.spans.get(name, (at, at))
        self.spans[name] = (min(first, at - seconds), max(last, at))

    def count(self, name: str, n: int = 1) -> None:
        self.counts[name] += n

    def merge(self, other: Meter) -> None:
        """Another process's meter (monotonic clocks agree across the processes of one machine)."""
        for name, stats in other.routes.items():
            self.route(name).merge(stats)
        for name, values in other.series.items():
            self.series.setdefault(name, []).extend(values)
        for name, instants in other.instants.items():
            self.instants.setdefault(name, []).extend(instants)
        self.counts.update(other.counts)
        for name, (first, last) in other.spans.items():
            mine = self.spans.get(name, (first, last))
            self.spans[name] = (min(mine[0], first), max(mine[1], last))

    def rate(self, name: str) -> float:
        """Samples of `name` per second over the span they were taken in."""
        first, last = self.spans.get(name, (0.0, 0.0))
        return len(self.series.get(name, ())) / (last - first) if last > first else 0.0

    def totals(self) -> RouteStats:
        total = RouteStats()
        for stats in self.routes.values():
            total.merge(stats)
        return total


def over_time(meter: Meter, name: str, since: float, window: float) -> list[tuple[float, list[float]]]:
    """Series `name`'s samples by `window`-second windows counted from the monotonic instant `since`: (the
    window's start, in seconds after `since`; its samples), in order, empty windows left out."""
    windows: dict[int, list[float]] = {}
    for at, seconds in zip(meter.instants.get(name, ()), meter.series.get(name, ()), strict=True):
        windows.setdefault(int((at - since) // window), []).append(seconds)
    return [(index * window, windows[index]) for index in sorted(windows)]


def quantiles(values: list[float]) -> dict[str, float]:
    """p50, p95, p99 and max (nearest rank); empty when there are no values."""
    if not values:
        return {}
    ordered = sorted(values)
    last = len(ordered) - 1

    def at(q: float) -> float:
        return ordered[min(last, int(q * len(ordered)))]

    return {"p50": at(0.50), "p95": at(0.95), "p99": at(0.99), "max": ordered[last]}
