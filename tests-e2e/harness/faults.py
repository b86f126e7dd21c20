"""Faults injected while the platform plays: each service killed with SIGKILL once and started again, and the
broker restarted once. They run one after the other on a fixed timetable (seconds after the play starts); a
fault starts no earlier than its time, and only once the previous one has recovered (every service ready)."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Sequence
from dataclasses import dataclass, field

import httpx

from harness.broker import restart_broker
from harness.processes import Platform

BROKER = "rabbitmq"


@dataclass(frozen=True)
class Fault:
    at: float
    target: str  # a service, or BROKER


#: Every service once and the broker once, over the first minute of play (the rebuy tournament's clock: levels of
#: 10 s, rebuys in levels 1-2, the add-on break at 20-24 s; it ends after 60-90 s): the wallet while rebuys are
#: paid and the draw is settled, the table engine mid-hand in the rebuy period, the director as the add-on break
#: ends, the broker mid-tournament, the gateway under the bots' sockets, the totalizator after its payouts, the
#: rating while results come in.
EVERY_SERVICE_AND_THE_BROKER = (
    Fault(6, "wallet"),
    Fault(13, "table-engine"),
    Fault(24, "tournament-director"),
    Fault(31, BROKER),
    Fault(38, "gateway"),
    Fault(45, "totalizator"),
    Fault(52, "rating"),
)


@dataclass
class FaultRecord:
    target: str
    at: float  # seconds after the play started
    recovered_after: float


@dataclass
class FaultLog:
    records: list[FaultRecord] = field(default_factory=list)

    def summary(self) -> str:
        return ", ".join(f"{r.target} at {r.at:.0f} s (back in {r.recovered_after:.1f} s)" for r in self.records)


async def inject(platform: Platform, schedule: Sequence[Fault], log: FaultLog, *, down_seconds: float = 1.0) -> None:
    started = time.monotonic()
    for fault in schedule:
        await asyncio.sleep(max(0.0, started + fault.at - time.monotonic()))
        began = time.monotonic()
        if fault.target == BROKER:
            await restart_broker()
            await _all_ready(platform)
        else:
            await platform.kill_and_restart(fault.target, down_seconds)
        log.records.append(FaultRecord(fault.target, began - started, time.monotonic() - began))


async def _all_ready(platform: Platform) -> None:
    """After a broker restart, every service has reconnected (its `/readyz` checks the bus)."""
    async with httpx.AsyncClient() as http:
        await asyncio.gather(*(p.wait_ready(http, platform.ready_timeout) for p in platform.services.values()))
