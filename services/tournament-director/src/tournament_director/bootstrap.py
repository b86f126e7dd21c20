"""The director's composition root: its context (`Director`), what each money step's answer does, the reactions
to its internal events, the bus consumers (`service/consumed.py`) and the background tasks (the clock, the money
worker, the lobby, the idempotency-key purge) — assembled once, held by the app as `app.state.services`."""

from __future__ import annotations

import asyncio
import random
from dataclasses import dataclass
from datetime import timedelta

import httpx
from platform_kit.clock import Clock
from platform_kit.internal_client import InternalClient
from platform_kit.key_retention import KeyRetention
from platform_kit.keyed_batches import KeyedBatches
from platform_kit.outgoing_calls import OutgoingCalls
from platform_kit.runtime import ServiceRuntime
from platform_kit.unit_of_work import REACTIONS_TABLE, Reactions

from tournament_director.adapters import money_steps
from tournament_director.adapters.money_steps import StepKind
from tournament_director.adapters.orm import idempotency_keys
from tournament_director.adapters.rating import RatingClient
from tournament_director.adapters.wallet import WalletClient
from tournament_director.service import consumed, lifecycle, money, purchases, registration, satellites, settlement
from tournament_director.service.clock import run_clock
from tournament_director.service.context import Director, Metrics
from tournament_director.service.events import RunFinished, SatelliteSettled, SitAndGoFilled
from tournament_director.service.lobby import Lobby
from tournament_director.settings import Settings


@dataclass
class Services:
    """What the app needs: the runtime it starts and stops, and the director its routes run commands on
    (`service.handlers.handle`)."""

    runtime: ServiceRuntime
    director: Director
    #: Purges the answers kept under Idempotency-Keys past their retention (a background task).
    key_retention: KeyRetention


def build(
    runtime: ServiceRuntime,
    settings: Settings,
    clock: Clock,
    rng: random.Random,
    *,
    wallet_transport: httpx.AsyncBaseTransport | None = None,
    rating_transport: httpx.AsyncBaseTransport | None = None,
) -> Services:
    def client(base_url: str, transport: httpx.AsyncBaseTransport | None) -> InternalClient:
        return InternalClient(
            base_url, settings.internal_token, timeout=settings.wallet_timeout_seconds, transport=transport
        )

    reactions = Reactions(
        runtime.db,
        runtime.outbox,
        runtime.metadata.tables[REACTIONS_TABLE],
        now=clock.now,
        # A reaction still pending after this long was lost (a crash) or failed: the clock reacts to it again.
        retry_after=timedelta(seconds=settings.money_retry_seconds),
    )
    wallet = client(settings.wallet_url, wallet_transport)
    calls = OutgoingCalls(
        money_steps.CALLS,
        {money_steps.WALLET: wallet},
        unit=reactions.unit,
        reads=runtime.units.reading,
        now=clock.now,
    )
    director = Director(
        runtime=runtime,
        settings=settings,
        clock=clock,
        rng=rng,
        wallet=WalletClient(wallet),
        rating=RatingClient(client(settings.rating_url, rating_transport)),
        metrics=Metrics.build(runtime),
        reactions=reactions,
        calls=calls,
    )
    _register_completions(director)
    _register_batches(director)
    _register_reactions(director)
    consumed.subscribe(director)
    runtime.in_background(lambda: money.run_worker(director))
    runtime.in_background(lambda: run_clock(director))
    runtime.in_background(Lobby(director).run)  # the settings' entries, and those staff add from the console
    runtime.in_background(lambda: _close_clients_at_stop(director))
    key_retention = KeyRetention.start(runtime, idempotency_keys, clock, metric_prefix="tournament")
    return Services(runtime=runtime, director=director, key_retention=key_retention)


def _register_completions(director: Director) -> None:
    completions = director.completions
    for kind in (StepKind.BUY_IN, StepKind.TICKET_ENTRY):
        completions[kind] = registration.on_entry_paid
    for kind in registration.REFUND_REASONS:
        completions[kind] = registration.on_refunded
    for kind in (StepKind.REBUY, StepKind.ADDON):
        completions[kind] = purchases.on_paid
    completions[StepKind.PURCHASE_REFUND] = purchases.on_refunded
    for kind in settlement.SETTLEMENT_KINDS:
        completions[kind] = settlement.on_step_answered


def _register_batches(director: Director) -> None:
    """A tournament's seat holds and the answers to their payments, each run in batches (`Director.seat_holds`)."""
    sizes = director.metrics.registration_batches
    director.seat_holds = KeyedBatches(
        lambda t, requests: registration.hold_seats(director, t, requests), observe=sizes.labels("hold").observe
    )
    director.entry_answers = KeyedBatches(
        lambda t, answered: money.apply_answers(director, answered, registration.on_entries_paid),
        observe=sizes.labels("answer").observe,
    )


def _register_reactions(director: Director) -> None:
    """Internal event -> what follows it, after the commit that raised it (service/events.py)."""
    reactions = director.reactions
    reactions.on(SitAndGoFilled, lambda uow, event: lifecycle.on_filled(director, uow, event))
    reactions.on(RunFinished, lambda uow, event: settlement.on_run_finished(director, uow, event))
    reactions.on(SatelliteSettled, lambda uow, event: satellites.on_satellite_settled(director, uow, event))


async def _close_clients_at_stop(director: Director) -> None:
    try:
        await asyncio.Event().wait()
    finally:
        await director.wallet.close()
        await director.rating.close()
