"""The rules a tournament definition must satisfy, each reported as an `Issue` (field, code, message).

`definition_issues` returns every broken rule, so a refused definition lists all its problems at once.

**Interpretations** taken here (beyond the spec's letter):
- The €0.50–€100 range and the 80% floor (P-3.5, P-8.1) apply to rebuy and add-on prices too: the seed calls a
  rebuy "a further buy-in quota", and P-4.4 applies the P-8.1 split to them.
- A freeroll (P-9) has no paid rebuys or add-ons: it is free to enter, and its cancellation rule (P-10.9) only
  knows sponsored entries.
- An add-on is offered during breaks (P-7.2): each add-on moment must be a configured break, at most one add-on
  per player per moment, so `max_addons` cannot exceed the number of moments.
- Blind levels never decrease (the seed's "progressive increasing levels"); a break after the last level is
  refused because the last level never ends.
- In shoot-out, a table plays down to at most half its seats, so every phase eliminates someone (P-6.4).
- A custom payout schedule is given in brackets of field sizes that must cover min..max players without gaps
  or overlaps, and no bracket pays more places than its smallest field has players.
- A satellite pays seats (`payouts.satellite_prizes`), so it takes no payout schedule.
"""

from __future__ import annotations

from collections.abc import Iterator
from itertools import pairwise
from typing import TYPE_CHECKING

from tournament_director.domain.entries import Price, format_euro
from tournament_director.domain.issues import Issue
from tournament_director.domain.kinds import PrizeForm, TableMode, TournamentKind

if TYPE_CHECKING:
    from tournament_director.domain.definition import AddonSettings, BlindStructure, TournamentDefinition

SIT_AND_GO_MIN_SEATS = 2
SIT_AND_GO_MAX_SEATS = 120
SCHEDULED_MIN_PLAYERS = 10
SCHEDULED_MAX_PLAYERS = 3_000
MIN_PRICE_CENTS = 50
MAX_PRICE_CENTS = 10_000
#: P-4.2, P-4.3, P-4.5: buy-in + all rebuys, and all add-ons + all rebuys, each at most €100.
REBUY_ADDON_CAP_CENTS = 10_000


def definition_issues(definition: TournamentDefinition) -> list[Issue]:
    """Every rule `definition` breaks; an empty list means it is valid."""
    return [
        *_field_size_issues(definition),
        *_table_issues(definition),
        *_entry_price_issues(definition),
        *_rebuy_addon_issues(definition),
        *_blind_issues(definition),
        *_satellite_issues(definition),
        *_access_issues(definition),
        *_payout_issues(definition),
    ]


def _field_size_issues(d: TournamentDefinition) -> Iterator[Issue]:
    if d.kind is TournamentKind.SIT_AND_GO:
        if d.min_players != d.max_players:
            yield Issue("min_players", "sit_and_go_seats_not_fixed", "a sit'n'go has a fixed number of seats")
        if not SIT_AND_GO_MIN_SEATS <= d.max_players <= SIT_AND_GO_MAX_SEATS:
            yield Issue(
                "max_players",
                "sit_and_go_seats_out_of_range",
                f"a sit'n'go has {SIT_AND_GO_MIN_SEATS} to {SIT_AND_GO_MAX_SEATS} seats, not {d.max_players}",
            )
        if d.field_limit_exception:
            yield Issue(
                "field_limit_exception",
                "field_limit_exception_not_applicable",
                "the field-size exception applies to scheduled tournaments only",
            )
        return
    if d.min_players < SCHEDULED_MIN_PLAYERS:
        yield Issue(
            "min_players",
            "scheduled_min_players_below_10",
            f"a scheduled tournament needs at least {SCHEDULED_MIN_PLAYERS} players",
        )
    if d.max_players > SCHEDULED_MAX_PLAYERS and not d.field_limit_exception:
        yield Issue(
            "max_players",
            "scheduled_max_players_above_3000",
            f"more than {SCHEDULED_MAX_PLAYERS:,} players needs the explicit field-limit exception",
        )
    if d.max_players < d.min_players:
        yield Issue("max_players", "max_players_below_min_players", "max_players is below min_players")


def _table_issues(d: TournamentDefinition) -> Iterator[Issue]:
    tables = d.tables
    if tables.mode is TableMode.SHOOTOUT and tables.shootout_winners_per_table > tables.seats_per_table // 2:
        yield Issue(
            "tables.shootout_winners_per_table",
            "shootout_winners_too_many",
            f"a {tables.seats_per_table}-seat table plays down to at most {tables.seats_per_table // 2} winners",
        )


def _price_issues(field: str, price: Price, what: str) -> Iterator[Issue]:
    """P-3.5 range and P-8.1 floor of one price."""
    if not MIN_PRICE_CENTS <= price.total_cents <= MAX_PRICE_CENTS:
        yield Issue(
            field,
            "price_out_of_range",
            f"the {what} costs {format_euro(price.total_cents)}; it must be between "
            f"{format_euro(MIN_PRICE_CENTS)} and {format_euro(MAX_PRICE_CENTS)}",
        )
    if not price.prize_part_meets_floor:
        yield Issue(
            f"{field}.prize_part_cents",
            "prize_part_below_80_percent",
            f"the {what}'s prize part {format_euro(price.prize_part_cents)} is below 80% of its price "
            f"{format_euro(price.total_cents)}",
        )


def _entry_price_issues(d: TournamentDefinition) -> Iterator[Issue]:
    if d.freeroll is None:
        yield from _price_issues("buy_in", d.buy_in, "buy-in")
        return
    if d.buy_in.total_cents != 0:
        yield Issue("buy_in", "freeroll_not_free", "a freeroll is free to enter (P-9.1)")
    sponsored = d.freeroll.sponsored_entry
    if sponsored is not None:
        yield from _price_issues("freeroll.sponsored_entry", sponsored, "sponsored entry")
    elif d.freeroll.prize_form is PrizeForm.CASH:
        yield Issue(
            "freeroll.sponsored_entry",
            "sponsored_entry_required",
            "a freeroll with cash prizes needs a sponsored entry of at least €0.50 per player (P-9.2)",
        )
    elif d.guarantee_cents == 0:
        yield Issue("guarantee_cents", "freeroll_without_prizes", "a freeroll needs prizes: set a guarantee")


def _rebuy_addon_issues(d: TournamentDefinition) -> Iterator[Issue]:
    if d.freeroll is not None:
        if d.rebuy is not None:
            yield Issue("rebuy", "paid_rebuy_in_freeroll", "a freeroll has no paid rebuys")
        if d.addon is not None:
            yield Issue("addon", "paid_addon_in_freeroll", "a freeroll has no paid add-ons")
    all_rebuys = 0
    if d.rebuy is not None:
        yield from _price_issues("rebuy.price", d.rebuy.price, "rebuy")
        all_rebuys = d.rebuy.max_rebuys * d.rebuy.price.total_cents
        if d.buy_in.total_cents + all_rebuys > REBUY_ADDON_CAP_CENTS:
            yield Issue(
                "rebuy.max_rebuys",
                "rebuy_cap_exceeded",
                f"buy-in {format_euro(d.buy_in.total_cents)} + {d.rebuy.max_rebuys} rebuys × "
                f"{format_euro(d.rebuy.price.total_cents)} = {format_euro(d.buy_in.total_cents + all_rebuys)}"
                f" exceeds {format_euro(REBUY_ADDON_CAP_CENTS)} (P-4.5)",
            )
        if d.rebuy.last_level > len(d.blinds.levels):
            yield Issue(
                "rebuy.last_level",
                "rebuy_period_beyond_levels",
                f"the rebuy period ends after level {d.rebuy.last_level}, but there are only "
                f"{len(d.blinds.levels)} levels",
            )
    if d.addon is not None:
        yield from _price_issues("addon.price", d.addon.price, "add-on")
        all_addons = d.addon.max_addons * d.addon.price.total_cents
        if all_addons + all_rebuys > REBUY_ADDON_CAP_CENTS:
            yield Issue(
                "addon.max_addons",
                "addon_cap_exceeded",
                f"{d.addon.max_addons} add-ons × {format_euro(d.addon.price.total_cents)} + all rebuys "
                f"{format_euro(all_rebuys)} = {format_euro(all_addons + all_rebuys)} exceeds "
                f"{format_euro(REBUY_ADDON_CAP_CENTS)} (P-4.5)",
            )
        yield from _addon_moment_issues(d.addon, d.blinds)


def _addon_moment_issues(addon: AddonSettings, blinds: BlindStructure) -> Iterator[Issue]:
    moments = addon.at_breaks_after_levels
    if not moments:
        yield Issue("addon.at_breaks_after_levels", "addon_without_moment", "an add-on needs at least one moment")
    if len(set(moments)) != len(moments):
        yield Issue("addon.at_breaks_after_levels", "addon_moment_repeated", "an add-on moment is listed twice")
    for index, level in enumerate(moments):
        if blinds.break_after(level) is None:
            yield Issue(
                f"addon.at_breaks_after_levels.{index}",
                "addon_moment_not_a_break",
                f"there is no break after level {level} to offer the add-on in",
            )
    if addon.max_addons > len(set(moments)):
        yield Issue(
            "addon.max_addons",
            "more_addons_than_moments",
            f"{addon.max_addons} add-ons cannot be bought at {len(set(moments))} moments, one per moment",
        )


def _blind_issues(d: TournamentDefinition) -> Iterator[Issue]:
    levels = d.blinds.levels
    if not levels:
        yield Issue("blinds.levels", "no_blind_levels", "a blind structure has at least one level")
        return
    for index, level in enumerate(levels):
        if level.big_blind < level.small_blind:
            yield Issue(
                f"blinds.levels.{index}.big_blind", "big_blind_below_small_blind", "the big blind is the larger"
            )
        if index and any(
            getattr(level, name) < getattr(levels[index - 1], name) for name in ("small_blind", "big_blind", "ante")
        ):
            yield Issue(f"blinds.levels.{index}", "blind_level_decreases", "blinds and ante never decrease")
    after_levels = [b.after_level for b in d.blinds.breaks]
    for index, after_level in enumerate(after_levels):
        if after_level >= len(levels):
            yield Issue(
                f"blinds.breaks.{index}.after_level",
                "break_after_last_level",
                f"a break must come before the last level (level {len(levels)}), which never ends",
            )
    if len(set(after_levels)) != len(after_levels):
        yield Issue("blinds.breaks", "break_repeated", "two breaks after the same level")
    if d.starting_stack < levels[0].big_blind:
        yield Issue(
            "starting_stack", "starting_stack_below_big_blind", "the starting stack is below the first big blind"
        )


def _satellite_issues(d: TournamentDefinition) -> Iterator[Issue]:
    if d.satellite is None:
        return
    if d.satellite.seat_price.total_cents == 0:
        yield Issue("satellite.seat_price", "seat_price_not_positive", "a seat in the target has a price")
    if d.payouts.brackets:
        yield Issue("payouts.brackets", "satellite_pays_seats", "a satellite pays seats, not a payout schedule")
    if d.freeroll is not None and d.freeroll.sponsored_entry is None:
        yield Issue("freeroll", "satellite_without_pool", "a freeroll satellite buys its seats with sponsored entries")


def _access_issues(d: TournamentDefinition) -> Iterator[Issue]:
    allowed = d.access.allowed_tiers
    if allowed is not None and not allowed:
        yield Issue("access.allowed_tiers", "no_tier_allowed", "no tier may register: list some or leave it unset")
    if allowed is not None and allowed & d.access.excluded_tiers:
        yield Issue("access.excluded_tiers", "tier_allowed_and_excluded", "a tier cannot be both allowed and excluded")


def _payout_issues(d: TournamentDefinition) -> Iterator[Issue]:
    if d.payouts.table_winners_bps and d.tables.mode is not TableMode.SHOOTOUT:
        yield Issue("payouts.table_winners_bps", "table_winners_without_shootout", "only a shoot-out has table winners")
    if d.payouts.table_winners_bps and d.satellite is not None:
        yield Issue("payouts.table_winners_bps", "satellite_pays_seats", "a satellite pays seats, not table winners")
    brackets = sorted(d.payouts.brackets, key=lambda bracket: bracket.min_entrants)
    if not brackets:
        return
    for index, bracket in enumerate(d.payouts.brackets):
        if bracket.max_entrants < bracket.min_entrants:
            yield Issue(f"payouts.brackets.{index}", "payout_bracket_empty", "max_entrants is below min_entrants")
        if bracket.schedule.paid_places > bracket.min_entrants:
            yield Issue(
                f"payouts.brackets.{index}.schedule",
                "more_prizes_than_entrants",
                f"{bracket.schedule.paid_places} prizes for as few as {bracket.min_entrants} entrants",
            )
    for lower, upper in pairwise(brackets):
        if upper.min_entrants <= lower.max_entrants:
            yield Issue("payouts.brackets", "payout_brackets_overlap", f"two brackets cover {upper.min_entrants}")
        elif upper.min_entrants > lower.max_entrants + 1:
            yield Issue("payouts.brackets", "payout_brackets_gap", f"no bracket for {lower.max_entrants + 1}")
    if brackets[0].min_entrants > d.min_players:
        yield Issue("payouts.brackets", "payout_brackets_gap", f"no bracket for {d.min_players} entrants")
    if brackets[-1].max_entrants < d.max_players:
        yield Issue("payouts.brackets", "payout_brackets_gap", f"no bracket for {d.max_players} entrants")
