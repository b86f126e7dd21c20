"""One capacity run: a private virtual host and fresh databases, the platform started (replicas), the load
generators spawned, the sampler on, the scenario played, quiet, the invariants checked — and, whatever happens
(a failure, Ctrl-C, SIGTERM), everything torn down: load generators and services stopped, databases dropped,
the virtual host deleted.

Logs and `summary.json` stay in `bench/results/capacity/<run>/` (git-ignored)."""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import secrets
import signal
import time
import uuid
from collections.abc import Callable, Iterator
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

import httpx
from harness.broker import VirtualHost
from harness.cast import staff_session
from harness.databases import create_databases, drop_databases
from harness.logs import notable_lines, tally
from harness.processes import START_ORDER
from harness.verdict import wait_until_quiet
from platform_kit.testing import RABBITMQ_URL

from capacity import ARTIFACTS, people
from capacity.checks import check
from capacity.client import MeteredClient
from capacity.configuration import service_settings
from capacity.fleet import Fleet
from capacity.metrics import Meter, over_time, quantiles
from capacity.options import Options
from capacity.platform import CapacityPlatform
from capacity.readers import PatientReaders
from capacity.sampler import Sampler, Samples
from capacity.scenarios import SCENARIOS, Stage

#: After the play: how long the platform may take to publish and drain everything before the checks.
QUIET_TIMEOUT = 300.0
METER_TIMEOUT = 60.0
#: The action latency's timeline: its quantiles over windows this long.
TIMELINE_SECONDS = 30.0


@dataclass
class CapacityResult:
    options: Options
    name: str
    run_dir: Path
    seconds: float = 0.0
    #: The monotonic instant the run started at: what `timings` and the action timeline count from.
    started: float = field(default_factory=time.monotonic)
    timings: dict[str, float] = field(default_factory=dict)
    meter: Meter = field(default_factory=Meter)
    staff: Meter = field(default_factory=Meter)
    samples: Samples = field(default_factory=Samples)
    engine: dict[str, Any] = field(default_factory=dict)
    problems: dict[str, list[str]] = field(default_factory=dict)
    facts: dict[str, Any] = field(default_factory=dict)
    error: str | None = None
    log_warnings: list[str] = field(default_factory=list)
    #: The run's databases and virtual host (dropped and deleted by the teardown).
    databases: list[str] = field(default_factory=list)
    vhost: str = ""

    @property
    def failed(self) -> bool:
        return bool(self.error) or any(self.problems.values())

    def fail(self, why: str) -> None:
        """One more reason the run failed, after those already known."""
        self.error = f"{self.error}; {why}" if self.error else why

    def summary(self) -> dict[str, Any]:
        routes = {name: stats.as_json() for name, stats in self.meter.routes.items()}
        return {
            "run": self.name,
            "options": asdict(self.options),
            "seconds": round(self.seconds, 1),
            "error": self.error,
            "timings": self.timings,
            "problems": self.problems,
            "facts": self.facts,
            "engine": self.engine,
            "counts": dict(self.meter.counts),
            "routes": routes,
            "action_timeline": [
                {"from_s": round(start, 1), **quantiles(values), "count": len(values)}
                for start, values in over_time(self.meter, "action", self.started, TIMELINE_SECONDS)
            ],
            "samples": asdict(self.samples),
            "log_warnings": self.log_warnings,
            "torn down": {"databases": self.databases, "vhost": self.vhost},
        }


async def run(options: Options, artifacts: Path = ARTIFACTS) -> CapacityResult:
    name = f"{options.scenario}-{uuid.uuid4().hex[:6]}"
    result = CapacityResult(options, name, artifacts / name)
    result.run_dir.mkdir(parents=True)
    started = result.started
    vhost = VirtualHost(RABBITMQ_URL, f"capacity-{name}")
    result.vhost = vhost.name
    databases: dict[str, str] = {}
    platform: CapacityPlatform | None = None
    fleet: Fleet | None = None
    sampler: Sampler | None = None
    with _terminated_as_cancelled():
        try:
            await vhost.create()
            databases = await create_databases(START_ORDER)
            platform = CapacityPlatform(
                result.run_dir, databases, vhost.url, secrets.token_hex(16), service_settings(options),
                shards=options.shards, gateways=options.gateways,
            )  # fmt: skip
            await platform.start()
            result.timings["platform ready"] = round(time.monotonic() - started, 1)
            fleet = Fleet(options.processes, platform.public_url, options.seed, options.bots)
            fleet.start()
            sampler = Sampler(_pids(platform, fleet), databases, vhost.name, queue_seconds=options.queue_sample_seconds)
            sampler.start()
            await _play_and_check(options, result, platform, fleet, sampler, vhost, started)
        except asyncio.CancelledError:
            result.fail("interrupted (Ctrl-C or SIGTERM)")
        except Exception as error:  # reported by the result: the caller decides (the bench exits 1, a test fails)
            result.fail(f"{type(error).__name__}: {error}")
        finally:
            result.databases = sorted(url.rsplit("/", 1)[1] for url in databases.values())
            await _tear_down(result, fleet, sampler, platform, databases, vhost)
            result.seconds = time.monotonic() - started
            result.log_warnings = tally(notable_lines(result.run_dir))
            try:
                (result.run_dir / "summary.json").write_text(json.dumps(result.summary(), indent=2, default=str))
            except (TypeError, ValueError, OSError) as error:  # the tables are printed all the same
                result.fail(f"summary.json not written: {error!r}")
    return result


async def _play_and_check(
    options: Options,
    result: CapacityResult,
    platform: CapacityPlatform,
    fleet: Fleet,
    sampler: Sampler,
    vhost: VirtualHost,
    started: float,
) -> None:
    async with (
        MeteredClient(result.staff, base_url=platform.public_url, timeout=30.0) as gateway,
        httpx.AsyncClient(timeout=60.0) as internal,
    ):
        staff = await staff_session(gateway, platform.public_url)
        await people.open_concessionaire(staff)
        stage = Stage(options, fleet, staff, timings=result.timings, started=started)
        try:
            played = await SCENARIOS[options.scenario](stage)
        finally:
            if stage.error:
                result.fail(stage.error)
            with contextlib.suppress(Exception):  # a load generator that died has no meter to give
                result.meter = await asyncio.wait_for(fleet.meter(), METER_TIMEOUT)
        readers = PatientReaders(platform, internal)
        await wait_until_quiet(readers, vhost, timeout=QUIET_TIMEOUT)
        stage.mark("quiet")
        result.samples = await sampler.stop()
        result.engine = await engine_facts(readers)
        verdict = await check(readers, vhost, played)
        stage.mark("checked")
        result.problems, result.facts = verdict.problems, verdict.facts
        if dead := platform.dead():
            result.problems["processes"] = [f"services died: {dead}"]


async def engine_facts(readers: PatientReaders) -> dict[str, Any]:
    """Hands and tables from the table engine's records (every shard writes the same database)."""
    rows = await readers.rows(
        "table-engine",
        "SELECT count(*) FILTER (WHERE status = 'completed') AS completed, "
        "count(*) FILTER (WHERE status = 'voided') AS voided, count(DISTINCT table_id) AS tables, "
        "EXTRACT(EPOCH FROM max(ended_at) - min(started_at)) AS seconds FROM hands",
    )
    row = rows[0]
    seconds = float(row["seconds"] or 0.0)
    return {
        "hands completed": row["completed"],
        "hands voided": row["voided"],
        "tables": row["tables"],
        "seconds": round(seconds, 1),
        "hands per second": round(row["completed"] / seconds, 2) if seconds else 0.0,
    }


async def _tear_down(
    result: CapacityResult,
    fleet: Fleet | None,
    sampler: Sampler | None,
    platform: CapacityPlatform | None,
    databases: dict[str, str],
    vhost: VirtualHost,
) -> None:
    """Everything the run started, in reverse; each step whatever the one before did."""
    if sampler is not None:
        with contextlib.suppress(Exception):
            result.samples = await sampler.stop()
    if fleet is not None:
        fleet.stop()
    if platform is not None:
        platform.stop()
    await drop_databases(databases.values())
    with contextlib.suppress(Exception):
        await vhost.delete()


def _pids(platform: CapacityPlatform, fleet: Fleet) -> Callable[[], dict[str, int]]:
    return lambda: {**platform.pids(), **fleet.pids, "coordinator": os.getpid()}


@contextlib.contextmanager
def _terminated_as_cancelled() -> Iterator[None]:
    """SIGTERM cancels the run like Ctrl-C does, so that its teardown runs."""
    loop = asyncio.get_running_loop()
    task = asyncio.current_task()
    if task is not None:
        loop.add_signal_handler(signal.SIGTERM, task.cancel)
    try:
        yield
    finally:
        loop.remove_signal_handler(signal.SIGTERM)
