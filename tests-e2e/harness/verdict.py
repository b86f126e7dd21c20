"""After the play: wait until the platform is quiet (every outbox published, every queue drained), then check
every invariant and read the money state."""

from __future__ import annotations

import asyncio
from collections import Counter
from dataclasses import dataclass
from typing import Any

from tournament_director.domain.definition import TournamentDefinition

from harness.broker import VirtualHost
from harness.cast import balance
from harness.client import Session
from harness.definitions import chips_issued
from harness.invariants import gather
from harness.invariants.chips import HandChips, hand_problems, tournament_chip_problems
from harness.invariants.draws import draw_problems
from harness.invariants.ledger import reconciliation_problems
from harness.invariants.messaging import deliveries, delivery_problems
from harness.invariants.prizes import ENTRY_KINDS, REFUND, TournamentMoney, prize_problems, ranking_problems
from harness.invariants.ratings import rating_problems
from harness.money_state import MoneyState, money_state
from harness.readers import Readers


@dataclass(frozen=True)
class PlayedTournament:
    tournament_id: str
    definition: TournamentDefinition


@dataclass(frozen=True)
class Played:
    """What a run did, for the checks to look up."""

    sit_and_go: PlayedTournament
    scheduled: PlayedTournament
    draw_id: str
    bettors: tuple[Session, ...]
    #: The tournaments (and the draw) that had not ended when the play timed out.
    unfinished: tuple[str, ...] = ()


async def wait_until_quiet(readers: Readers, vhost: VirtualHost, timeout: float = 60.0) -> None:
    """Until every outbox row is published and every durable queue is empty, twice in a row a second apart."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    calm = 0
    while calm < 2:
        outbox = await gather.outbox_rows(readers)
        queues = await vhost.queues()
        busy = [q.name for q in queues if q.messages and ".instance." not in q.name and not q.name.endswith(".dead")]
        unpublished = sum(not row.published for row in outbox)
        calm = calm + 1 if not busy and not unpublished else 0
        if loop.time() > deadline:
            raise AssertionError(f"not quiet after {timeout:.0f} s: {unpublished} unpublished, busy queues {busy}")
        await asyncio.sleep(1.0)


@dataclass
class Verdict:
    problems: list[str]
    money: MoneyState
    #: What happened, for the summary: per tournament its entries and hands (completed, voided by faults).
    facts: dict[str, Any]


async def check(readers: Readers, vhost: VirtualHost, played: Played) -> Verdict:
    problems: list[str] = []
    facts: dict[str, Any] = {}
    reconciliation = await readers.get("wallet", "/internal/v1/reconciliation")
    problems += reconciliation_problems(reconciliation)

    moneys: list[TournamentMoney] = []
    for name, tournament in (("sit_and_go", played.sit_and_go), ("scheduled", played.scheduled)):
        money = await gather.tournament_money(readers, tournament.tournament_id, tournament.definition)
        moneys.append(money)
        problems += prize_problems(money)
        problems += ranking_problems(money.tournament_id, set(money.entries("buy_in")), money.positions)
        hands = await gather.tournament_hands(readers, money.tournament_id)
        problems += _chip_problems(money, hands)
        facts[name] = {
            "tournament_id": money.tournament_id,
            "entries": {kind: sum(money.entries(kind).values()) for kind in (*ENTRY_KINDS, REFUND)},
            "pool_cents": money.pool,
            "hands": Counter(hand.status for hand in hands),
            "tables": len({hand.table_id for hand in hands}),
        }
        histories = await gather.rating_histories(readers, money.positions)
        problems += rating_problems(money.tournament_id, money.positions, money.pool, histories)

    outbox, applied, patterns, queues = await gather.delivery_facts(readers, vhost)
    problems += delivery_problems(outbox, applied, patterns, queues)
    facts["messaging"] = {
        "events_published": len(outbox),
        "deliveries_checked": len(deliveries(outbox, patterns)),
        "queues": sorted(patterns),
    }

    bettor_ids = [bettor.player_id for bettor in played.bettors]
    draw = await gather.draw_facts(readers, played.draw_id, bettor_ids)
    problems += draw_problems(**draw)
    paid = draw["wallet_paid"]

    state = money_state(
        reconciliation,
        [await balance(bettor) for bettor in played.bettors],
        draw["draw"],
        [paid.get(player, 0) for player in bettor_ids],
        *moneys,
    )
    return Verdict(problems, state, facts)


def _chip_problems(money: TournamentMoney, hands: list[HandChips]) -> list[str]:
    completed = [hand for hand in hands if hand.status == "completed"]
    issued = chips_issued(money.definition, money.entrants, money.purchased_chips)
    return hand_problems(hands) + tournament_chip_problems(
        money.tournament_id, issued, completed[-1] if completed else None
    )
