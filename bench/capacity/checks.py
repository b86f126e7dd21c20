"""Every invariant the e2e harness checks, over whatever a capacity run played: any number of tournaments, a
draw or none. The checks themselves are the harness's (`harness.invariants`, read by `harness.invariants.gather`);
this module only applies them to the run's tournaments and draw and groups the problems by what they check:

- ledger: per currency the balances sum to zero, no account drifts from its entries;
- prizes: entries at their price, one payout operation paying the schedule by position, escrow empty (P-8);
- rankings: every entrant ranked exactly once, positions 1..N (P-2.1, P-2.4);
- chips: every completed hand ends with the chips it started with; the winner holds every chip issued;
- ratings: one award per ranked player and tournament, at their position, on the pool from entries (P-11);
- messaging: every event published, applied once by every queue bound to it, nothing dead-lettered or left;
- draw: settled, every winning coupon paid once as the settlement says, every stake taken once (T-3 to T-6).
"""

from __future__ import annotations

import asyncio
from collections import Counter
from dataclasses import dataclass
from typing import Any

from harness.broker import VirtualHost
from harness.invariants import gather
from harness.invariants.draws import draw_problems
from harness.invariants.ledger import reconciliation_problems
from harness.invariants.messaging import deliveries, delivery_problems
from harness.invariants.prizes import TournamentMoney, prize_problems, ranking_problems
from harness.invariants.ratings import rating_problems
from harness.readers import Readers
from harness.verdict import PlayedTournament, _chip_problems

#: Tournaments read at once (each is a handful of reads from the director, the wallet and the table engine).
PARALLEL = 8


@dataclass(frozen=True)
class Played:
    tournaments: tuple[PlayedTournament, ...] = ()
    draw_id: str | None = None
    bettors: tuple[str, ...] = ()


@dataclass
class Verdict:
    problems: dict[str, list[str]]
    facts: dict[str, Any]

    @property
    def failed(self) -> bool:
        return any(self.problems.values())


async def check(readers: Readers, vhost: VirtualHost, played: Played) -> Verdict:
    problems: dict[str, list[str]] = {"ledger": [], "messaging": []}
    facts: dict[str, Any] = {}
    problems["ledger"] = reconciliation_problems(await readers.get("wallet", "/internal/v1/reconciliation"))
    if played.tournaments:
        found = await _tournament_problems(readers, played.tournaments)
        problems.update(found.problems)
        facts.update(found.facts)
    if played.draw_id is not None:
        draw = await gather.draw_facts(readers, played.draw_id, played.bettors)
        problems["draw"] = draw_problems(**draw)
        facts["draw"] = {"status": draw["draw"]["status"], "coupons": len(draw["coupons"]), **draw["draw"]["transfers"]}
    outbox, applied, patterns, queues = await gather.delivery_facts(readers, vhost)
    problems["messaging"] = delivery_problems(outbox, applied, patterns, queues)
    facts["messaging"] = {"events published": len(outbox), "deliveries checked": len(deliveries(outbox, patterns))}
    return Verdict(problems, facts)


async def _tournament_problems(readers: Readers, tournaments: tuple[PlayedTournament, ...]) -> Verdict:
    gate = asyncio.Semaphore(PARALLEL)

    async def one(tournament: PlayedTournament) -> tuple[TournamentMoney, dict[str, list[str]], Counter[str]]:
        async with gate:
            money = await gather.tournament_money(readers, tournament.tournament_id, tournament.definition)
            hands = await gather.tournament_hands(readers, money.tournament_id)
        entrants = set(money.entries("buy_in"))
        found = {
            "prizes": prize_problems(money),
            "rankings": ranking_problems(money.tournament_id, entrants, money.positions),
            "chips": _chip_problems(money, hands),
        }
        return money, found, Counter(hand.status for hand in hands)

    results = await asyncio.gather(*(one(tournament) for tournament in tournaments))
    problems: dict[str, list[str]] = {"prizes": [], "rankings": [], "chips": [], "ratings": []}
    hands: Counter[str] = Counter()
    for _, found, statuses in results:
        for name, listed in found.items():
            problems[name] += listed
        hands += statuses
    ranked = {player for money, _, _ in results for player in money.positions}
    histories = await gather.rating_histories(readers, ranked)
    for money, _, _ in results:
        problems["ratings"] += rating_problems(money.tournament_id, money.positions, money.pool, histories)
    facts = {
        "tournaments": len(tournaments),
        "entries": sum(money.entrants for money, _, _ in results),
        "hands": dict(hands),
    }
    return Verdict(problems, facts)
