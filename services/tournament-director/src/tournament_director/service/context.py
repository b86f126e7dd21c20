"""What every use case needs: the runtime (database, outbox), its units of work and their reactions, settings,
the injected clock and generator, the wallet and rating clients, and the director's metrics."""

from __future__ import annotations

import asyncio
import random
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any

from platform_kit.admission import Admission
from platform_kit.clock import Clock
from platform_kit.db import after_commit
from platform_kit.keyed_locks import KeyedLocks
from platform_kit.outgoing_calls import OutgoingCalls
from platform_kit.runtime import ServiceRuntime
from platform_kit.unit_of_work import Reactions, UnitOfWork
from prometheus_client import Counter
from sqlalchemy.ext.asyncio import AsyncSession

from tournament_director.adapters.bus_messages import TableTimers
from tournament_director.adapters.http import Answer
from tournament_director.adapters.money_steps import MoneyStep, StepKind
from tournament_director.adapters.rating import RatingClient
from tournament_director.adapters.runs import RunCache
from tournament_director.adapters.wallet import WalletClient
from tournament_director.settings import Settings

#: What a money step's answer does (its kind's use case), inside the transaction that records the answer; what
#: it returns is its driver's (`service.money.Applied`).
Completion = Callable[["Director", AsyncSession, MoneyStep, Answer], Awaitable[object]]


@dataclass
class Metrics:
    commands_rejected: Counter
    money_steps: Counter
    idempotent_requests: Counter

    @classmethod
    def build(cls, runtime: ServiceRuntime) -> Metrics:
        return cls(
            commands_rejected=Counter(
                "tournament_table_commands_rejected_total",
                "Table commands the table engine refused",
                ["command", "code"],
                registry=runtime.registry,
            ),
            money_steps=Counter(
                "tournament_money_steps_total",
                "Wallet calls answered, by kind and outcome",
                ["kind", "outcome"],
                registry=runtime.registry,
            ),
            idempotent_requests=Counter(
                "tournament_idempotent_requests_total",
                "Requests under an Idempotency-Key: executed, replayed, key_reused, in_flight, released, outcome_pending",
                ["outcome"],
                registry=runtime.registry,
            ),
        )


@dataclass
class Director:
    runtime: ServiceRuntime
    settings: Settings
    clock: Clock
    #: Seats players (P-5); `random.SystemRandom()` in production.
    rng: random.Random
    wallet: WalletClient
    rating: RatingClient
    metrics: Metrics
    #: Internal event -> its reaction, run after the commit that raised it (`service.events`, see `bootstrap`).
    reactions: Reactions
    #: The money steps' wallet calls: made, and their answers applied once (`service.money`).
    calls: OutgoingCalls
    #: Set when money steps were recorded that nobody is driving yet (the money worker waits on it).
    money_waiting: asyncio.Event = field(default_factory=asyncio.Event)
    #: Money step kind -> what its answer does (see `bootstrap`).
    completions: dict[StepKind, Completion] = field(default_factory=dict)
    #: The runs this process saved last (`adapters.runs`): no restore per hand while nobody else changed them.
    run_cache: RunCache = field(default_factory=RunCache)
    #: One seat held at a time per tournament in this process (`service.registration`), the other holds waiting
    #: before their unit of work, without a database connection. Holding a seat locks the tournament's row until
    #: its commit; in a 3,000-player rush every other hold waited for that lock inside PostgreSQL with a pooled
    #: connection each (7 of the director's 10 on average, pg_stat_activity), and every other step of every
    #: registration waited for a connection too. The row lock stays: it orders replicas' holds and the start.
    seat_gates: KeyedLocks = field(default_factory=KeyedLocks)
    #: (scope, Idempotency-Key) of the requests this process is running -> set when each is over: a repeat
    #: waits on it instead of polling the database (`service.idempotent`).
    requests_running: dict[tuple[str, str], asyncio.Event] = field(default_factory=dict)
    #: Bounds the requests under an Idempotency-Key in flight (`api.keyed`).
    keyed_requests: Admission = field(init=False)
    #: The keyed requests running, kept until they end, also after their caller was answered `outcome_pending`.
    outliving: set[asyncio.Task[Any]] = field(default_factory=set)

    def __post_init__(self) -> None:
        self.keyed_requests = Admission(
            self.settings.keyed_requests_in_flight,
            "director_busy",
            "Too many registrations and payments are being made; retry shortly with the same Idempotency-Key.",
            wait_seconds=self.settings.keyed_requests_wait_seconds,
        )

    @property
    def timers(self) -> TableTimers:
        return TableTimers(self.settings.action_seconds, self.settings.time_bank_seconds)

    @property
    def rebuy_offer_time(self) -> timedelta:
        return timedelta(seconds=self.settings.rebuy_offer_seconds)

    def unit(self) -> UnitOfWork:
        """The one transaction of a use case (or of one step of it: a payment's seat, then its answer); use
        cases open no other."""
        return self.reactions.unit()

    def now(self) -> datetime:
        return self.clock.now()

    def wake_money_worker_after_commit(self, session: AsyncSession) -> None:
        """Money steps recorded in `session` are for the worker: wake it once they are committed."""
        after_commit(session, self.money_waiting.set)
