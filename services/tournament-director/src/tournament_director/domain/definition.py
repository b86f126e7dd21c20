"""Tournament definitions (P-3.3): what every tournament declares, validated when it is created.

Construction validates: building a `TournamentDefinition` (directly, with `model_validate`, or through
`create_definition`) checks the shape of the data (pydantic) and then every rule of `definition_rules`; a
definition object that exists is a valid one. `create_definition` is the entry point for untrusted input: it
turns shape errors too into a `DefinitionError`, so callers handle one exception carrying every
`{field, code, message}` found. Change a definition with `revise`, which validates again (pydantic's
`model_copy(update=...)` would not).

All money is in integer cents; chips and blinds are plain integers; durations are whole seconds.
"""

from __future__ import annotations

from typing import Any

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    NonNegativeInt,
    PositiveInt,
    ValidationError,
    model_validator,
)

from tournament_director.domain.access import AccessRestrictions
from tournament_director.domain.definition_rules import definition_issues
from tournament_director.domain.entries import Price
from tournament_director.domain.issues import DefinitionError, Issue
from tournament_director.domain.kinds import (
    BettingStructure,
    PrizeForm,
    RebuyEligibility,
    SatellitePrizeMode,
    TableMode,
    TournamentKind,
)
from tournament_director.domain.payouts import PayoutSchedule, default_schedule


class _Frozen(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class BlindLevel(_Frozen):
    """One level of the blind structure (P-7.1)."""

    small_blind: PositiveInt
    big_blind: PositiveInt
    ante: NonNegativeInt = 0
    duration_seconds: PositiveInt


class Break(_Frozen):
    """A pause between level `after_level` and the next one (P-7.2); levels are numbered from 1."""

    after_level: PositiveInt
    duration_seconds: PositiveInt


class BlindStructure(_Frozen):
    """Levels in play order and the breaks between them (P-7). The last level lasts until the end."""

    levels: tuple[BlindLevel, ...]
    breaks: tuple[Break, ...] = ()
    #: P-1.2's optional extension: the big blind posts the ante for everyone.
    big_blind_ante: bool = False

    def break_after(self, level_number: int) -> Break | None:
        return next((b for b in self.breaks if b.after_level == level_number), None)


class RebuySettings(_Frozen):
    """P-4.2: a player out of chips may buy `chips` again at `price`, up to `max_rebuys` times, during levels
    1..`last_level` (the exact period is defined in `rebuy_addon`)."""

    price: Price
    chips: PositiveInt
    max_rebuys: PositiveInt
    last_level: PositiveInt
    eligibility: RebuyEligibility = RebuyEligibility.OUT_OF_CHIPS


class AddonSettings(_Frozen):
    """P-4.3: any player still in may buy `chips` at `price` during the breaks after the listed levels, at most
    once per break and `max_addons` times in all."""

    price: Price
    chips: PositiveInt
    max_addons: PositiveInt
    at_breaks_after_levels: tuple[PositiveInt, ...]


class FreerollSettings(_Frozen):
    """P-9: free to enter; with cash prizes the concessionaire buys each player `sponsored_entry` (≥ €0.50)."""

    prize_form: PrizeForm = PrizeForm.CASH
    sponsored_entry: Price | None = None


class SatelliteSettings(_Frozen):
    """P-3.4: the target the satellite qualifies for, what a seat there is worth, and the prize's form."""

    target_tournament_id: str = Field(min_length=1)
    seat_price: Price
    prize_mode: SatellitePrizeMode


class TableSettings(_Frozen):
    """Table composition (P-6): seats per table and mode; in shoot-out, the winners each table plays down to."""

    seats_per_table: int = Field(ge=2, le=10)
    mode: TableMode = TableMode.STANDARD
    shootout_winners_per_table: PositiveInt = 1


class PayoutBracket(_Frozen):
    """The schedule for fields of `min_entrants`..`max_entrants` players."""

    min_entrants: PositiveInt
    max_entrants: PositiveInt
    schedule: PayoutSchedule


class PayoutSettings(_Frozen):
    """P-8.4: a tournament's own schedule by field size; no brackets means the platform's defaults.

    P-2.5: in a shoot-out, `table_winners_bps` of the prize pool (0–100%) goes in equal parts to the players who
    win their table of the first phase; the rest follows the schedule by final position."""

    brackets: tuple[PayoutBracket, ...] = ()
    table_winners_bps: int = Field(0, ge=0, le=10_000)


class TournamentDefinition(_Frozen):
    """Everything a tournament declares (P-3.3), valid by construction."""

    name: str = Field(min_length=1)
    kind: TournamentKind
    #: A sit'n'go has a fixed number of seats: min_players == max_players (P-3.1).
    min_players: PositiveInt
    max_players: PositiveInt
    #: P-3.2: a scheduled tournament may exceed 3,000 players only with this explicit exception.
    field_limit_exception: bool = False
    betting_structure: BettingStructure
    starting_stack: PositiveInt
    blinds: BlindStructure
    #: What an entrant pays (P-3.5, P-8.1); `FREE` for a freeroll (P-9.1).
    buy_in: Price
    rebuy: RebuySettings | None = None
    addon: AddonSettings | None = None
    guarantee_cents: NonNegativeInt = 0
    freeroll: FreerollSettings | None = None
    satellite: SatelliteSettings | None = None
    #: P-3.3 entry routes: False closes the tournament to buy-ins, so only the holders of its satellites' seats
    #: (and of tickets) enter it — P-3.4's "otherwise closed" target.
    direct_buy_in: bool = True
    access: AccessRestrictions = AccessRestrictions()
    tables: TableSettings
    payouts: PayoutSettings = PayoutSettings()

    @model_validator(mode="after")
    def _check_rules(self) -> TournamentDefinition:
        if issues := definition_issues(self):
            raise DefinitionError(issues)
        return self

    @property
    def is_heads_up(self) -> bool:
        return self.max_players == 2

    @property
    def entry_price(self) -> Price:
        """What one registration puts into the prize pool and the tax base: the buy-in, or for a freeroll the
        sponsored entry (P-9.2), if any."""
        if self.freeroll is not None:
            return self.freeroll.sponsored_entry or self.buy_in
        return self.buy_in

    def payout_schedule(self, entrants: int) -> PayoutSchedule:
        """The schedule shown at registration for a field of `entrants` (P-8.4). Satellites pay seats instead
        (`payouts.satellite_prizes`)."""
        if self.satellite is not None:
            raise ValueError("a satellite pays seats in its target: use payouts.satellite_prizes")
        for bracket in self.payouts.brackets:
            if bracket.min_entrants <= entrants <= bracket.max_entrants:
                return bracket.schedule
        if self.payouts.brackets:
            raise ValueError(f"no payout bracket covers {entrants} entrants")
        return default_schedule(entrants)


def create_definition(data: TournamentDefinition | dict[str, Any]) -> TournamentDefinition:
    """Validate untrusted data into a definition; every problem (shape or rule) raises `DefinitionError`."""
    if isinstance(data, TournamentDefinition):
        return data
    try:
        return TournamentDefinition.model_validate(data)
    except ValidationError as error:
        raise DefinitionError(
            [
                Issue(
                    field=".".join(str(part) for part in detail["loc"]) or "definition",
                    code=detail["type"],
                    message=detail["msg"],
                )
                for detail in error.errors()
            ]
        ) from None


def revise(definition: TournamentDefinition, **changes: Any) -> TournamentDefinition:
    """A copy of `definition` with `changes` applied, validated again (raises `DefinitionError`)."""
    return create_definition({**definition.model_dump(), **changes})
