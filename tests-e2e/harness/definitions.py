"""The two tournaments of a run, from the director's own templates, made fast enough for a CI machine: small
stacks and blind levels of a few seconds, so that bots playing random legal actions finish a 9-player sit'n'go
and a 30-player rebuy tournament in a minute or two."""

from __future__ import annotations

from tournament_director.domain.definition import (
    AddonSettings,
    BlindLevel,
    BlindStructure,
    Break,
    RebuySettings,
    TournamentDefinition,
    revise,
)
from tournament_director.domain.entries import Price
from tournament_director.domain.templates import nine_max_sit_and_go, scheduled_mtt

BUY_IN = Price(prize_part_cents=400, fee_cents=100)
STACK = 1_000
#: (small blind, big blind, ante): a steep ladder, so that stacks of 1,000 do not last long.
LADDER = ((10, 20, 0), (20, 40, 0), (40, 80, 5), (75, 150, 10), (150, 300, 25), (300, 600, 50), (600, 1200, 100))


def fast_blinds(level_seconds: int, *, break_after: int | None = None, break_seconds: int = 4) -> BlindStructure:
    """The ladder at `level_seconds` per level (the last level lasts until the end), doubling on after it."""
    levels = [*LADDER]
    while len(levels) < 14:
        small, big, ante = levels[-1]
        levels.append((small * 2, big * 2, ante * 2))
    return BlindStructure(
        levels=tuple(
            BlindLevel(small_blind=s, big_blind=b, ante=a, duration_seconds=level_seconds) for s, b, a in levels
        ),
        breaks=(Break(after_level=break_after, duration_seconds=break_seconds),) if break_after else (),
    )


def sit_and_go(level_seconds: int) -> TournamentDefinition:
    """9 seats, one table, 65/35 (P-8.4 small fields)."""
    return revise(nine_max_sit_and_go("e2e sit'n'go", BUY_IN), starting_stack=STACK, blinds=fast_blinds(level_seconds))


def rebuy_tournament(
    players: int, level_seconds: int, *, rebuy_levels: int = 2, max_rebuys: int = 2
) -> TournamentDefinition:
    """A scheduled 9-handed tournament for exactly `players` (≥ 10, P-3.2): rebuys during the first
    `rebuy_levels` levels, one add-on at the break after them (P-4, P-7.2)."""
    # The rebuy template's own blinds have its add-on break after level 6: revise the freezeout template instead,
    # with rebuys, add-on and the fast blinds together (a definition is validated as a whole).
    return revise(
        scheduled_mtt("e2e rebuy tournament", BUY_IN, min_players=10, max_players=players),
        starting_stack=STACK,
        blinds=fast_blinds(level_seconds, break_after=rebuy_levels),
        rebuy=RebuySettings(price=BUY_IN, chips=STACK, max_rebuys=max_rebuys, last_level=rebuy_levels),
        addon=AddonSettings(price=BUY_IN, chips=STACK, max_addons=1, at_breaks_after_levels=(rebuy_levels,)),
    )


def chips_issued(definition: TournamentDefinition, entrants: int, purchased_chips: int) -> int:
    """Every chip a tournament put in play: the starting stacks and the chips of the rebuys and add-ons applied."""
    return definition.starting_stack * entrants + purchased_chips
