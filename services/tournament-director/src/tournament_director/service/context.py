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
from platform_kit.keyed_batches import KeyedBatches
from platform_kit.outgoing_calls import OutgoingCalls
from platform_kit.runtime import ServiceRuntime
from platform_kit.unit_of_work import Reactions, UnitOfWork
from prometheus_client import Counter, Histogram
from sqlalchemy.ext.asyncio import AsyncSession

from tournament_director.adapters.bus_messages import TableTimers
from tournament_director.adapters.http import Answer
from tournament_director.adapters.money_steps import MoneyStep, StepKind
from tournament_director.adapters.rating import RatingClient
from tournament_director.adapters.runs import RunCache
from tournament_director.adapters.wallet import WalletClient
from tournament_director.service.commands import Registered, RegisterPlayer
from tournament_director.settings import Settings

#: What a money step's answer does (its kind's use case), inside the transaction that records the answer; what
#: it returns is its driver's (`service.money.drive_in_batches`).
Completion = Callable[["Director", AsyncSession, MoneyStep, Answer], Awaitable[object]]


@dataclass
class Metrics:
    commands_rejected: Counter
    money_steps: Counter
    idempotent_requests: Counter
    #: How many seat holds, or payment answers, each batch of a tournament took (`Director.seat_holds`).
    registration_batches: Histogram

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
            registration_batches=Histogram(
                "tournament_registration_batch_size",
                "Registrations per unit of work: seat holds (step hold) and payment answers (step answer)",
                ["step"],
                buckets=(1, 2, 5, 10, 20, 50, 100, 200),
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
    #: The seat holds of one tournament (`service.registration.hold_seats`) and the answers to their payments
    #: (`on_entries_paid`), each run in batches: what came in while the last batch ran goes in one unit of work.
    #: Each locks the tournament's row until its commit, for all of its round trips to the database; one at a
    #: time, a 3,000-player rush went at the pace of those round trips on a busy event loop (6-8 registrations
    #: a second, issue 14), however many waited. The row lock stays: it orders replicas' holds and the start.
    #: Set by `bootstrap`.
    seat_holds: KeyedBatches[RegisterPlayer, MoneyStep | Registered] = field(init=False)
    entry_answers: KeyedBatches[tuple[MoneyStep, Answer], tuple[MoneyStep, object]] = field(init=False)
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
