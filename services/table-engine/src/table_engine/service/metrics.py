"""What an SRE watches on a table-engine shard: hands played per second, how long a command takes, and the
tables nobody plays at."""

from __future__ import annotations

from prometheus_client import CollectorRegistry, Counter, Gauge, Histogram


class TableMetrics:
    def __init__(self, registry: CollectorRegistry) -> None:
        self.hands_ended = Counter(
            "table_hands_ended_total",
            "Hands ended on this shard, by how they ended (rate() of it is the hands per second)",
            ["status"],
            registry=registry,
        )
        self.command_seconds = Histogram(
            "table_command_seconds",
            "Time to apply one command, database commit included (a player's action latency)",
            ["type"],
            registry=registry,
            buckets=(0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5),
        )
        self.nobody_acting = Gauge(
            "table_nobody_acting_tables",
            "Open tables of this shard where every seated player sits out: they deal on at the hand pause's pace, "
            "blinds and antes posted, until the rising blinds bust someone",
            registry=registry,
        )
