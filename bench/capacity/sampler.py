"""What the machine does during a run, sampled in the coordinator while the bots play:

- per process (every service instance, the load generators, the coordinator): CPU seconds (utime + stime from
  `/proc/<pid>/stat`) and peak RSS (`VmHWM` from `/proc/<pid>/status`, the kernel's own high-water mark), every
  second; a process that exits keeps its last reading;
- per service database: connections open and in use (not idle) from `pg_stat_activity`, every second;
- per queue of the run's virtual host: messages ready (the depth) and unacknowledged (delivered, not yet
  applied), with `rabbitmqctl list_queues` every few seconds (the management plugin is not enabled here, and
  each `rabbitmqctl` call costs the broker's node a fraction of a core);
- the shared servers' own CPU (PostgreSQL, RabbitMQ), whoever else uses them, from the start to the end.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import os
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path

import asyncpg
from harness.broker import BrokerError, rabbitmqctl
from platform_kit.testing import POSTGRES_ADMIN_URL

log = logging.getLogger(__name__)

TICKS = os.sysconf("SC_CLK_TCK")
PROC = Path("/proc")


@dataclass
class ProcessUse:
    cpu_seconds: float = 0.0
    peak_rss_kib: int = 0


@dataclass
class QueueUse:
    peak_ready: int = 0
    peak_unacked: int = 0
    consumers: int = 0


@dataclass
class DatabaseUse:
    peak_open: int = 0
    peak_busy: int = 0


@dataclass
class Samples:
    processes: dict[str, ProcessUse] = field(default_factory=dict)
    databases: dict[str, DatabaseUse] = field(default_factory=dict)
    queues: dict[str, QueueUse] = field(default_factory=dict)
    #: The largest sum over the queues, at one sampling: how far behind the consumers were, in messages.
    peak_backlog: int = 0
    #: PostgreSQL and RabbitMQ CPU seconds during the run (the whole servers: other users included).
    servers: dict[str, float] = field(default_factory=dict)
    #: The PostgreSQL server's limit, shared with whoever else uses it.
    max_connections: int = 0
    errors: list[str] = field(default_factory=list)


def process_use(pid: int) -> ProcessUse | None:
    try:
        stat = (PROC / str(pid) / "stat").read_text()
        status = (PROC / str(pid) / "status").read_text()
    except OSError:
        return None
    fields = stat.rsplit(")", 1)[1].split()
    peak = next((int(line.split()[1]) for line in status.splitlines() if line.startswith("VmHWM:")), 0)
    return ProcessUse((int(fields[11]) + int(fields[12])) / TICKS, peak)


def server_cpu() -> dict[str, float]:
    """CPU seconds of every PostgreSQL and RabbitMQ process, with what each reaped child used (a PostgreSQL
    backend's CPU goes to the postmaster when its connection ends)."""
    totals = {"postgresql": 0.0, "rabbitmq": 0.0}
    names = {"postgres": "postgresql", "beam.smp": "rabbitmq"}
    for entry in PROC.iterdir():
        if not entry.name.isdigit():
            continue
        with contextlib.suppress(OSError, IndexError, ValueError):
            server = names.get((entry / "comm").read_text().strip())
            if server is not None:
                fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
                totals[server] += sum(int(value) for value in fields[11:15]) / TICKS
    return totals


class Sampler:
    def __init__(
        self,
        pids: Callable[[], Mapping[str, int]],
        databases: Mapping[str, str],
        vhost: str,
        *,
        queue_seconds: float = 5.0,
    ) -> None:
        """`pids`: asked at every sampling (processes come and go); `databases`: service → its database URL."""
        self.samples = Samples()
        self._pids = pids
        self._databases = {url.rsplit("/", 1)[1]: service for service, url in databases.items()}
        self._vhost = vhost
        self._queue_seconds = queue_seconds
        self._tasks: list[asyncio.Task[None]] = []
        self._servers_at_start: dict[str, float] = {}
        self._admin: asyncpg.Connection | None = None
        self._stopped = False

    def start(self) -> None:
        self._servers_at_start = server_cpu()
        self._tasks = [
            asyncio.create_task(self._every(1.0, self._processes)),
            asyncio.create_task(self._every(1.0, self._connections)),
            asyncio.create_task(self._every(self._queue_seconds, self._queues)),
        ]

    async def stop(self) -> Samples:
        """One last reading of the processes (before they are stopped), then the tasks end. Once: a second call
        gives the same samples."""
        if self._stopped:
            return self.samples
        self._stopped = True
        for task in self._tasks:
            task.cancel()
        await asyncio.gather(*self._tasks, return_exceptions=True)
        self._tasks = []
        if self._admin is not None:
            with contextlib.suppress(Exception):
                await self._admin.close()
        await self._processes()
        at_end = server_cpu()
        self.samples.servers = {name: at_end[name] - self._servers_at_start.get(name, 0.0) for name in at_end}
        return self.samples

    async def _every(self, seconds: float, read: Callable[[], Awaitable[None]]) -> None:
        while True:
            try:
                await read()
            except Exception as error:  # a failed sampling is reported, the run goes on
                if len(self.samples.errors) < 20:
                    self.samples.errors.append(f"{read.__name__}: {error!r}")
            await asyncio.sleep(seconds)

    async def _processes(self) -> None:
        for name, pid in self._pids().items():
            use = process_use(pid)
            if use is not None:
                known = self.samples.processes.setdefault(name, ProcessUse())
                known.cpu_seconds = use.cpu_seconds
                known.peak_rss_kib = max(known.peak_rss_kib, use.peak_rss_kib)

    async def _connections(self) -> None:
        if self._admin is None or self._admin.is_closed():
            self._admin = await asyncpg.connect(POSTGRES_ADMIN_URL)
            self.samples.max_connections = int(await self._admin.fetchval("SHOW max_connections"))
        rows = await self._admin.fetch(
            "SELECT datname, count(*) AS open, count(*) FILTER (WHERE state IS DISTINCT FROM 'idle') AS busy "
            "FROM pg_stat_activity WHERE datname = ANY($1::text[]) GROUP BY datname",
            list(self._databases),
        )
        for row in rows:
            use = self.samples.databases.setdefault(self._databases[row["datname"]], DatabaseUse())
            use.peak_open = max(use.peak_open, row["open"])
            use.peak_busy = max(use.peak_busy, row["busy"])

    async def _queues(self) -> None:
        try:
            out = await rabbitmqctl(
                "list_queues", "-p", self._vhost, "name", "messages_ready", "messages_unacknowledged", "consumers",
                "--formatter", "json", "--quiet",
            )  # fmt: skip
        except BrokerError as error:
            log.warning("queue sampling failed: %s", error)
            raise
        backlog = 0
        for row in json.loads(out or "[]"):
            use = self.samples.queues.setdefault(str(row["name"]), QueueUse())
            ready, unacked = int(row["messages_ready"]), int(row["messages_unacknowledged"])
            use.peak_ready = max(use.peak_ready, ready)
            use.peak_unacked = max(use.peak_unacked, unacked)
            use.consumers = max(use.consumers, int(row["consumers"]))
            backlog += ready + unacked
        self.samples.peak_backlog = max(self.samples.peak_backlog, backlog)
