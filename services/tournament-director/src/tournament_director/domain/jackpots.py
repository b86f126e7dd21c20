"""Progressive jackpot programmes (P-8.6): funding from the fee, conditions as data, a pure evaluator.

Funding: a programme takes `fee_share_bps` of each entry's fee net of that entry's tax — never the prize part
(the prize pool stays ≥ 80%) and never the tax. **Interpretation:** the entry's tax share is its full price
times the tax rate, rounded up, so rounding can never eat into the tax (`jackpot_contribution_cents`).

Conditions (**Interpretation** of the seed's examples):
- `LostShowdownCondition` — "lost a showdown holding four of a kind or better": a player who reached showdown
  with a best hand of at least `min_category` and won no chips from any pot of that hand.
- `WinStreakCondition` — "won N tournaments in a row": every tournament of the programme a player finishes
  moves their streak (a win adds one, anything else resets it to zero); reaching `wins_in_row` qualifies and
  starts the streak again from zero. Only tournaments with at least `min_entrants` count; others leave the
  streak untouched. Cancelled tournaments produce no finished fact, so they count for nothing.

The evaluator only says who qualifies; `split_jackpot` shares an award among several qualifiers (P-8.5).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from enum import IntEnum
from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field

from tournament_director.domain.entries import Price
from tournament_director.domain.money import BASIS_POINTS_PER_WHOLE, split_equally
from tournament_director.domain.ranking import PlayerId


class HandCategory(IntEnum):
    """Poker hand categories, weakest first, so that they compare."""

    HIGH_CARD = 1
    PAIR = 2
    TWO_PAIR = 3
    THREE_OF_A_KIND = 4
    STRAIGHT = 5
    FLUSH = 6
    FULL_HOUSE = 7
    FOUR_OF_A_KIND = 8
    STRAIGHT_FLUSH = 9


_CATEGORY_NAMES = {category.name.lower(): category for category in HandCategory} | {"one_pair": HandCategory.PAIR}


def hand_category(name: str) -> HandCategory:
    """The category of a shown hand from its name on the bus (`"four_of_a_kind"`; `"one_pair"` or `"pair"`)."""
    try:
        return _CATEGORY_NAMES[name.lower().replace(" ", "_")]
    except KeyError:
        raise ValueError(f"not a hand category: {name!r}") from None


class LostShowdownCondition(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    kind: Literal["lost_showdown"] = "lost_showdown"
    min_category: HandCategory = HandCategory.FOUR_OF_A_KIND


class WinStreakCondition(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    kind: Literal["win_streak"] = "win_streak"
    wins_in_row: int = Field(ge=2)
    min_entrants: int = Field(default=2, ge=2)


JackpotCondition = Annotated[LostShowdownCondition | WinStreakCondition, Field(discriminator="kind")]


class JackpotProgramme(BaseModel):
    """A progressive jackpot: what part of the fee funds it and what wins it (P-8.6)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    programme_id: str = Field(min_length=1)
    #: Share of each entry's fee, net of its tax, paid into the jackpot.
    fee_share_bps: int = Field(gt=0, le=BASIS_POINTS_PER_WHOLE)
    condition: JackpotCondition


def jackpot_contribution_cents(programme: JackpotProgramme, price: Price, tax_rate_bps: int) -> int:
    """What one entry at `price` pays into the programme: a share of its fee after its tax (P-8.6)."""
    entry_tax = -(-price.total_cents * tax_rate_bps // BASIS_POINTS_PER_WHOLE)
    fee_after_tax = max(0, price.fee_cents - entry_tax)
    return fee_after_tax * programme.fee_share_bps // BASIS_POINTS_PER_WHOLE


@dataclass(frozen=True)
class ShowdownHand:
    player_id: PlayerId
    category: HandCategory
    #: Chips the player won from any pot of the hand.
    chips_won: int


@dataclass(frozen=True)
class Showdown:
    """What the lost-showdown conditions look at in a completed hand (`table.hand.completed`): who showed what, and
    what each won."""

    tournament_id: str
    hand_id: str
    showdown: tuple[ShowdownHand, ...]


@dataclass(frozen=True)
class FinishedTournament:
    """What the win-streak conditions look at in a finished tournament."""

    tournament_id: str
    winner: PlayerId
    entrants: tuple[PlayerId, ...]


def showdown_qualifiers(programme: JackpotProgramme, fact: Showdown) -> tuple[PlayerId, ...]:
    """Players of `fact` who meet a lost-showdown condition, in showdown order; none for other conditions."""
    condition = programme.condition
    if not isinstance(condition, LostShowdownCondition):
        return ()
    return tuple(
        hand.player_id for hand in fact.showdown if hand.chips_won == 0 and hand.category >= condition.min_category
    )


@dataclass(frozen=True)
class StreakOutcome:
    qualifiers: tuple[PlayerId, ...]
    #: Every entrant's streak after the tournament (unchanged players are not listed).
    streaks: Mapping[PlayerId, int]


def streak_qualifiers(
    programme: JackpotProgramme, fact: FinishedTournament, streaks: Mapping[PlayerId, int]
) -> StreakOutcome:
    """Move the entrants' win streaks by `fact` and say who reached the programme's streak (P-8.6)."""
    if fact.winner not in fact.entrants:
        raise ValueError(f"the winner {fact.winner} is not among the entrants")
    condition = programme.condition
    if not isinstance(condition, WinStreakCondition) or len(fact.entrants) < condition.min_entrants:
        return StreakOutcome(qualifiers=(), streaks={})
    updated = {player: 0 for player in fact.entrants}
    updated[fact.winner] = streaks.get(fact.winner, 0) + 1
    if updated[fact.winner] < condition.wins_in_row:
        return StreakOutcome(qualifiers=(), streaks=updated)
    updated[fact.winner] = 0
    return StreakOutcome(qualifiers=(fact.winner,), streaks=updated)


def split_jackpot(fund_cents: int, qualifiers: Sequence[PlayerId]) -> dict[PlayerId, int]:
    """Share an award equally among `qualifiers`; leftover cents one each in their order (P-8.5)."""
    return dict(zip(qualifiers, split_equally(fund_cents, len(qualifiers)), strict=True))
