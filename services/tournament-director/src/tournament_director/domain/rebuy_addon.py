"""Who may rebuy and who may take an add-on, and when (P-4.1–P-4.3).

**Interpretation** — the rebuy period is levels 1..`last_level` of the blind structure (including a break right
after `last_level`, since the clock is still at that level). "Out of chips" (P-4.2) depends on the tournament's
`RebuyEligibility`:

- `OUT_OF_CHIPS` (default, the seed's wording): the player has no chips at the end of a hand that was played at
  a level of the period. A hand started in the period counts even if the clock moved on while it was played,
  because a hand finishes at its old level (P-7.1). The service offers the rebuy at that hand's end and records
  the bust in the elimination log only if the player does not take it.
- `AT_OR_BELOW_STARTING_STACK` (the common variant): as above when busted; besides, between hands, a player
  holding at most the starting stack may rebuy while the clock is still within the period.

Add-on (P-4.3, P-7.2): during a break listed as an add-on moment, a player still in with chips may buy one
add-on, up to `max_addons` in all. A player at zero chips must rebuy first: an add-on is no way around the
rebuy limit.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum

from tournament_director.domain.blind_clock import ClockReading
from tournament_director.domain.definition import TournamentDefinition
from tournament_director.domain.kinds import RebuyEligibility


class PurchaseRefusal(StrEnum):
    NOT_OFFERED = "not_offered"
    LIMIT_REACHED = "limit_reached"
    PERIOD_OVER = "period_over"
    NOT_OUT_OF_CHIPS = "not_out_of_chips"
    NOT_AN_ADDON_MOMENT = "not_an_addon_moment"
    ALREADY_BOUGHT_AT_THIS_MOMENT = "already_bought_at_this_moment"
    NO_CHIPS = "no_chips"


@dataclass(frozen=True)
class PlayerPurchases:
    """What a player has bought so far in a tournament."""

    rebuys: int = 0
    #: The add-on moments (breaks, by the level they follow) at which the player bought an add-on.
    addon_moments: frozenset[int] = field(default_factory=frozenset)


def rebuy_refusal(
    definition: TournamentDefinition,
    purchases: PlayerPurchases,
    *,
    chips: int,
    last_hand_level: int,
    clock: ClockReading,
) -> PurchaseRefusal | None:
    """Why the player may not rebuy now, or `None` if they may (P-4.2).

    `chips` is the player's stack after their last completed hand, played at level `last_hand_level`; `clock`
    is the blind clock now."""
    rebuy = definition.rebuy
    if rebuy is None:
        return PurchaseRefusal.NOT_OFFERED
    if purchases.rebuys >= rebuy.max_rebuys:
        return PurchaseRefusal.LIMIT_REACHED
    if chips == 0:
        return None if last_hand_level <= rebuy.last_level else PurchaseRefusal.PERIOD_OVER
    if rebuy.eligibility is RebuyEligibility.OUT_OF_CHIPS or chips > definition.starting_stack:
        return PurchaseRefusal.NOT_OUT_OF_CHIPS
    return None if clock.level_number <= rebuy.last_level else PurchaseRefusal.PERIOD_OVER


def addon_refusal(
    definition: TournamentDefinition, purchases: PlayerPurchases, *, chips: int, clock: ClockReading
) -> PurchaseRefusal | None:
    """Why a player still in with `chips` may not buy an add-on now, or `None` if they may (P-4.3)."""
    addon = definition.addon
    if addon is None:
        return PurchaseRefusal.NOT_OFFERED
    if clock.on_break is None or clock.level_number not in addon.at_breaks_after_levels:
        return PurchaseRefusal.NOT_AN_ADDON_MOMENT
    if clock.level_number in purchases.addon_moments:
        return PurchaseRefusal.ALREADY_BOUGHT_AT_THIS_MOMENT
    if len(purchases.addon_moments) >= addon.max_addons:
        return PurchaseRefusal.LIMIT_REACHED
    if chips == 0:
        return PurchaseRefusal.NO_CHIPS
    return None


def rebuys_or_addons_still_possible(definition: TournamentDefinition, clock: ClockReading) -> bool:
    """Whether a rebuy or an add-on can still happen from now on — the switch between P-10.2 and P-10.3
    when a tournament is cancelled. **Interpretation:** the rebuy period still running, or an add-on moment
    not yet over."""
    if definition.rebuy is not None and clock.level_number <= definition.rebuy.last_level:
        return True
    if definition.addon is None:
        return False
    return any(
        clock.level_number < level or (clock.level_number == level and clock.on_break is not None)
        for level in definition.addon.at_breaks_after_levels
    )
