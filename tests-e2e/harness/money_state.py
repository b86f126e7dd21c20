"""The money state a run ends in, and where two runs with the same seeds must agree.

Runs with the same seeds make the same decisions — who registers, who bets what, which scores the matches end
with, what each bot is willing to rebuy — but not the same cards: the table engine shuffles with a secure
generator of its own (P-1.3), and a fault voids hands in progress (P-10), after which the same hand is dealt
again from a fresh deck. So rankings, and which rebuys are taken, differ between runs; the rules then fix money
only where no card decides it:

- the totalizator: the same coupons and the same results give the same settlement, to the cent (T-3 to T-6),
  hence the same balance for every bettor (they play nothing else) and the same jackpot carried over;
- the sit'n'go: no rebuys, so the same pool and the same prize for each position (P-8.4, P-8.5) — who takes
  which position is the cards' business;
- the ledger: every currency sums to zero in both.

The rebuy tournament's pool depends on how many players busted while rebuys were open: it is checked by its
invariants in each run (pool = prize parts of the entries, paid once, as the schedule says), not compared.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from harness.invariants.prizes import TournamentMoney


@dataclass(frozen=True)
class MoneyState:
    ledger_sums: Mapping[str, int]
    bettor_balances: tuple[int, ...]
    draw_pool_usd: str
    draw_payouts: tuple[int, ...]  # per bettor, in bettor order: the sum of their coupons' payouts
    next_jackpot_usd: str | None
    sit_and_go_pool: int
    sit_and_go_prizes: tuple[int, ...]  # by position, 1st first
    scheduled_pool: int
    scheduled_entries: Mapping[str, int]  # buy_in / rebuy / add_on / refund → how many

    def as_json(self) -> dict[str, Any]:
        return {name: value for name, value in vars(self).items()}


def prizes_by_position(money: TournamentMoney) -> tuple[int, ...]:
    paid = money.payouts()
    ordered = sorted(money.positions.items(), key=lambda item: item[1])
    return tuple(paid.get(player, 0) for player, _ in ordered)


def money_state(
    reconciliation: Mapping[str, Any],
    bettor_balances: Sequence[int],
    draw: Mapping[str, Any],
    draw_payouts: Sequence[int],
    sit_and_go: TournamentMoney,
    scheduled: TournamentMoney,
) -> MoneyState:
    return MoneyState(
        ledger_sums={c["currency"]: c["sum_of_balances"] for c in reconciliation["currencies"]},
        bettor_balances=tuple(bettor_balances),
        draw_pool_usd=(draw.get("final") or {}).get("pool_usd", "?"),
        draw_payouts=tuple(draw_payouts),
        next_jackpot_usd=draw.get("next_jackpot_usd"),
        sit_and_go_pool=sit_and_go.pool,
        sit_and_go_prizes=prizes_by_position(sit_and_go),
        scheduled_pool=scheduled.pool,
        scheduled_entries={
            kind: sum(scheduled.entries(kind).values()) for kind in ("buy_in", "rebuy", "add_on", "refund")
        },
    )


AGREEING = (
    "ledger_sums",
    "bettor_balances",
    "draw_pool_usd",
    "draw_payouts",
    "next_jackpot_usd",
    "sit_and_go_pool",
    "sit_and_go_prizes",
)


def disagreements(first: MoneyState, second: MoneyState) -> list[str]:
    """Where the rules say two runs with the same seeds end alike, and they do not."""
    return [
        f"{name}: {getattr(first, name)!r} ≠ {getattr(second, name)!r}"
        for name in AGREEING
        if getattr(first, name) != getattr(second, name)
    ]
