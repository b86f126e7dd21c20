"""Ready-made definitions for the usual kinds of tournament; adjust one with `definition.revise`.

Each template fills in a sensible blind structure and table setup and leaves the commercial choices (name,
price, guarantee, field size) to the caller. Every result is validated like any other definition.
"""

from __future__ import annotations

from typing import Any

from tournament_director.domain.definition import (
    AddonSettings,
    BlindLevel,
    BlindStructure,
    Break,
    FreerollSettings,
    RebuySettings,
    SatelliteSettings,
    TableSettings,
    TournamentDefinition,
)
from tournament_director.domain.entries import FREE, Price
from tournament_director.domain.kinds import (
    BettingStructure,
    PrizeForm,
    SatellitePrizeMode,
    TableMode,
    TournamentKind,
)

#: (small blind, big blind, ante) of the standard ladder, in play order.
BLIND_LADDER: tuple[tuple[int, int, int], ...] = (
    (10, 20, 0), (15, 30, 0), (25, 50, 0), (50, 100, 0), (75, 150, 0), (100, 200, 25), (150, 300, 25),
    (200, 400, 50), (300, 600, 75), (400, 800, 100), (600, 1200, 150), (800, 1600, 200), (1000, 2000, 250),
    (1500, 3000, 400), (2000, 4000, 500), (3000, 6000, 750), (4000, 8000, 1000), (6000, 12000, 1500),
    (8000, 16000, 2000), (10000, 20000, 2500), (15000, 30000, 4000), (20000, 40000, 5000),
)  # fmt: skip

SIT_AND_GO_STACK = 1_500
MTT_STACK = 3_000
#: The €0.50 entry (40 + 10, the 80% floor exactly) a concessionaire buys for a cash freeroll (P-9.2).
MINIMUM_SPONSORED_ENTRY = Price(prize_part_cents=40, fee_cents=10)


def standard_blinds(level_minutes: int, *, break_every: int | None = None, break_minutes: int = 5) -> BlindStructure:
    """The standard ladder at `level_minutes` per level, with a break after every `break_every` levels."""
    levels = tuple(
        BlindLevel(small_blind=sb, big_blind=bb, ante=ante, duration_seconds=level_minutes * 60)
        for sb, bb, ante in BLIND_LADDER
    )
    breaks = (
        tuple(
            Break(after_level=after, duration_seconds=break_minutes * 60)
            for after in range(break_every, len(levels), break_every)
        )
        if break_every
        else ()
    )
    return BlindStructure(levels=levels, breaks=breaks)


def _sit_and_go_fields(name: str, buy_in: Price, seats: int, seats_per_table: int) -> dict[str, Any]:
    return {
        "name": name,
        "kind": TournamentKind.SIT_AND_GO,
        "min_players": seats,
        "max_players": seats,
        "betting_structure": BettingStructure.NO_LIMIT,
        "starting_stack": SIT_AND_GO_STACK,
        "blinds": standard_blinds(5),
        "buy_in": buy_in,
        "tables": TableSettings(seats_per_table=seats_per_table),
    }


def _mtt_fields(name: str, buy_in: Price, min_players: int, max_players: int) -> dict[str, Any]:
    """9-handed, 10-minute levels, a 5-minute break every 6 levels."""
    return {
        "name": name,
        "kind": TournamentKind.SCHEDULED,
        "min_players": min_players,
        "max_players": max_players,
        "betting_structure": BettingStructure.NO_LIMIT,
        "starting_stack": MTT_STACK,
        "blinds": standard_blinds(10, break_every=6),
        "buy_in": buy_in,
        "tables": TableSettings(seats_per_table=9),
    }


def heads_up_sit_and_go(name: str, buy_in: Price) -> TournamentDefinition:
    return TournamentDefinition(**_sit_and_go_fields(name, buy_in, seats=2, seats_per_table=2))


def six_max_sit_and_go(name: str, buy_in: Price) -> TournamentDefinition:
    return TournamentDefinition(**_sit_and_go_fields(name, buy_in, seats=6, seats_per_table=6))


def nine_max_sit_and_go(name: str, buy_in: Price) -> TournamentDefinition:
    return TournamentDefinition(**_sit_and_go_fields(name, buy_in, seats=9, seats_per_table=9))


def shootout_sit_and_go(
    name: str, buy_in: Price, *, tables: int = 6, seats_per_table: int = 6, winners_per_table: int = 1
) -> TournamentDefinition:
    """A shoot-out sit'n'go: `tables` full tables, each played down to its winners, then regrouped (P-6.4)."""
    fields = _sit_and_go_fields(name, buy_in, seats=tables * seats_per_table, seats_per_table=seats_per_table)
    fields["tables"] = TableSettings(
        seats_per_table=seats_per_table, mode=TableMode.SHOOTOUT, shootout_winners_per_table=winners_per_table
    )
    return TournamentDefinition(**fields)


def scheduled_mtt(
    name: str, buy_in: Price, *, min_players: int = 10, max_players: int = 3_000, guarantee_cents: int = 0
) -> TournamentDefinition:
    """A scheduled multi-table tournament (freezeout)."""
    fields = _mtt_fields(name, buy_in, min_players, max_players)
    return TournamentDefinition(**fields, guarantee_cents=guarantee_cents)


def rebuy_mtt(
    name: str,
    buy_in: Price,
    *,
    max_rebuys: int = 3,
    rebuy_period_levels: int = 6,
    min_players: int = 10,
    max_players: int = 3_000,
    guarantee_cents: int = 0,
) -> TournamentDefinition:
    """A scheduled MTT with rebuys at the buy-in price during the first levels and one add-on at the break
    that ends the rebuy period (P-4). The caps of P-4.5 limit `max_rebuys` for a given price."""
    return TournamentDefinition(
        **_mtt_fields(name, buy_in, min_players, max_players),
        guarantee_cents=guarantee_cents,
        rebuy=RebuySettings(price=buy_in, chips=MTT_STACK, max_rebuys=max_rebuys, last_level=rebuy_period_levels),
        addon=AddonSettings(price=buy_in, chips=MTT_STACK, max_addons=1, at_breaks_after_levels=(rebuy_period_levels,)),
    )


def freeroll(
    name: str,
    *,
    sponsored_entry: Price = MINIMUM_SPONSORED_ENTRY,
    guarantee_cents: int = 0,
    min_players: int = 10,
    max_players: int = 3_000,
) -> TournamentDefinition:
    """A scheduled freeroll with cash prizes: each player's entry is bought by the concessionaire (P-9)."""
    return TournamentDefinition(
        **_mtt_fields(name, FREE, min_players, max_players),
        guarantee_cents=guarantee_cents,
        freeroll=FreerollSettings(prize_form=PrizeForm.CASH, sponsored_entry=sponsored_entry),
    )


def satellite(
    name: str,
    buy_in: Price,
    *,
    target_tournament_id: str,
    seat_price: Price,
    prize_mode: SatellitePrizeMode = SatellitePrizeMode.TICKET,
    min_players: int = 10,
    max_players: int = 3_000,
) -> TournamentDefinition:
    """A scheduled satellite paying seats in `target_tournament_id` (P-3.4)."""
    return TournamentDefinition(
        **_mtt_fields(name, buy_in, min_players, max_players),
        satellite=SatelliteSettings(
            target_tournament_id=target_tournament_id, seat_price=seat_price, prize_mode=prize_mode
        ),
    )
