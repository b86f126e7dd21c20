"""The tournament a simulation plays: its options and the definition built from them (templates + revise)."""

from __future__ import annotations

import re
from dataclasses import dataclass

from tournament_director.domain.definition import SatelliteSettings, TableSettings, TournamentDefinition, revise
from tournament_director.domain.definition_rules import (
    REBUY_ADDON_CAP_CENTS,
    SCHEDULED_MAX_PLAYERS,
    SCHEDULED_MIN_PLAYERS,
)
from tournament_director.domain.entries import Price
from tournament_director.domain.kinds import SatellitePrizeMode, TableMode, TournamentKind
from tournament_director.domain.templates import nine_max_sit_and_go, rebuy_mtt, scheduled_mtt

SEATS_PER_TABLE = 9
MAX_REBUYS = 3
#: 90+10 (P-8.1's example): €90 to the prize pool, €10 fee.
DEFAULT_BUY_IN = Price(prize_part_cents=9_000, fee_cents=1_000)


@dataclass(frozen=True)
class SimulationOptions:
    players: int
    seed: int
    kind: TournamentKind = TournamentKind.SCHEDULED
    mode: TableMode = TableMode.STANDARD
    buy_in: Price = DEFAULT_BUY_IN
    starting_stack: int = 10_000
    #: Simulated time one hand takes at every table: the blind clock moves by this much per hand.
    seconds_per_hand: int = 60
    #: Scheduled only: a rebuy tournament (rebuys during the first six levels, an add-on at the break after).
    rebuys: bool = False
    #: A satellite paying seats of this price in a target tournament (P-3.4).
    satellite_seat: Price | None = None
    #: Shoot-out: the part of the pool for the first phase's table winners, in basis points (P-2.5).
    table_winners_bps: int = 0


def parse_price(text: str) -> Price:
    """`"90+10"` (euros, prize part + fee, P-8.1) or `"0.45+0.05"` → a `Price` in cents."""
    match = re.fullmatch(r"\s*(\d+(?:\.\d{1,2})?)\s*\+\s*(\d+(?:\.\d{1,2})?)\s*", text)
    if match is None:
        raise ValueError(f"a price is written prize part + fee in euros, e.g. 90+10, not {text!r}")
    return Price(prize_part_cents=_cents(match.group(1)), fee_cents=_cents(match.group(2)))


def _cents(euros: str) -> int:
    whole, _, fraction = euros.partition(".")
    return int(whole) * 100 + int(fraction.ljust(2, "0"))


def simulation_definition(options: SimulationOptions) -> TournamentDefinition:
    """A valid definition for `options` (raises `DefinitionError` otherwise), with the scheduled template's blind
    structure and the options' starting stack for every kind."""
    name = f"simulation {options.seed}"
    players = options.players
    if options.kind is TournamentKind.SCHEDULED:
        base = _scheduled(name, options)
        seats_per_table = SEATS_PER_TABLE
    else:
        if options.rebuys:
            raise ValueError("the simulated rebuy tournament is a scheduled one")
        base = revise(
            nine_max_sit_and_go(name, options.buy_in),
            min_players=players,
            max_players=players,
            blinds=scheduled_mtt(name, options.buy_in).blinds,
        )
        seats_per_table = min(SEATS_PER_TABLE, max(players, 2))
    satellite = None
    if options.satellite_seat is not None:
        satellite = SatelliteSettings(
            target_tournament_id="simulated-target",
            seat_price=options.satellite_seat,
            prize_mode=SatellitePrizeMode.TICKET,
        )
    return revise(
        base,
        starting_stack=options.starting_stack,
        tables=TableSettings(seats_per_table=seats_per_table, mode=options.mode),
        satellite=satellite,
        payouts={
            "brackets": () if satellite is not None else base.payouts.brackets,
            "table_winners_bps": options.table_winners_bps,
        },
    )


def _scheduled(name: str, options: SimulationOptions) -> TournamentDefinition:
    # Below the minimum the definition is still valid: the run then refuses to start (P-3.2).
    field = min(max(options.players, SCHEDULED_MIN_PLAYERS), SCHEDULED_MAX_PLAYERS)
    limits = {"min_players": SCHEDULED_MIN_PLAYERS, "max_players": field}
    if not options.rebuys:
        definition = scheduled_mtt(name, options.buy_in, **limits)
    else:
        # P-4.5: buy-in + every rebuy, and the add-on + every rebuy, within €100.
        max_rebuys = min(MAX_REBUYS, REBUY_ADDON_CAP_CENTS // options.buy_in.total_cents - 1)
        if max_rebuys < 1:
            raise ValueError("the buy-in leaves no room for a rebuy under the €100 cap (P-4.5)")
        definition = rebuy_mtt(name, options.buy_in, max_rebuys=max_rebuys, **limits)
    if options.players > SCHEDULED_MAX_PLAYERS:
        definition = revise(definition, max_players=options.players, field_limit_exception=True)
    return definition
