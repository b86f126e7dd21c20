"""How a hand is configured: the table's stakes and betting structure, who sits where, and the positions."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from types import MappingProxyType
from typing import NamedTuple

from table_engine.domain.errors import InvalidConfiguration
from table_engine.domain.seating import Positions, clockwise_after, initial_positions

MIN_PLAYERS = 2
MAX_PLAYERS = 10


class BettingStructure(StrEnum):
    NO_LIMIT = "no_limit"
    POT_LIMIT = "pot_limit"
    FIXED_LIMIT = "fixed_limit"


@dataclass(frozen=True, slots=True)
class TableRules:
    """Stakes and betting structure (P-1.1, P-7.1). All amounts are integer chips.

    - ``ante``: paid by every player (P-1.2), or, with ``big_blind_ante``, by the big blind alone, posted
      before the big blind and dead (P-1.2a). It is the amount of that single ante.
    - ``small_bet``/``big_bet`` (fixed-limit): the bet and raise size pre-flop and on the flop, and on the turn
      and river; by default the big blind and twice the big blind.
    - ``raise_cap`` (fixed-limit): raises allowed after the bet in a betting round (WSOP rule 100b: a bet and
      four raises); pre-flop the big blind is the bet. None means no cap.
    - ``uncapped_heads_up`` (fixed-limit): no cap in a hand dealt to two players. WSOP rule 100b lifts the cap
      only once the whole tournament is heads-up: a tournament table that is briefly two-handed should pass
      False.
    """

    structure: BettingStructure
    small_blind: int
    big_blind: int
    ante: int = 0
    big_blind_ante: bool = False
    small_bet: int | None = None
    big_bet: int | None = None
    raise_cap: int | None = 4
    uncapped_heads_up: bool = True

    def __post_init__(self) -> None:
        for name in ("small_blind", "big_blind", "ante"):
            value = getattr(self, name)
            if type(value) is not int or value < 0:
                raise InvalidConfiguration(f"{name} must be a non-negative integer number of chips, not {value!r}")
        if not 0 < self.small_blind <= self.big_blind:
            raise InvalidConfiguration("the blinds must satisfy 0 < small blind <= big blind")
        if self.big_blind_ante and not self.ante:
            raise InvalidConfiguration("a big-blind ante needs a positive ante amount")
        for name in ("small_bet", "big_bet"):
            value = getattr(self, name)
            if value is not None and (type(value) is not int or value <= 0):
                raise InvalidConfiguration(f"{name} must be a positive integer, not {value!r}")
        if (self.small_bet is not None or self.big_bet is not None) and not self.is_fixed_limit:
            raise InvalidConfiguration("small_bet and big_bet only exist in fixed-limit")
        if self.raise_cap is not None and self.raise_cap < 0:
            raise InvalidConfiguration("raise_cap must be non-negative or None")

    @property
    def is_fixed_limit(self) -> bool:
        return self.structure is BettingStructure.FIXED_LIMIT

    @property
    def limit_small_bet(self) -> int:
        """Fixed-limit bet size pre-flop and on the flop."""
        return self.big_blind if self.small_bet is None else self.small_bet

    @property
    def limit_big_bet(self) -> int:
        """Fixed-limit bet size on the turn and river."""
        return 2 * self.limit_small_bet if self.big_bet is None else self.big_bet


class SeatConfig(NamedTuple):
    """The player in a seat at the start of the hand."""

    player_id: str
    stack: int


@dataclass(frozen=True, slots=True)
class HandConfig:
    """One hand: rules, the dealt-in seats (seat number -> player and starting stack) and the positions.

    ``positions`` and the seats to deal in (``dealt_in``, not the players waiting for the button) normally come
    from ``seating.next_positions``; ``HandConfig.from_button`` builds a table's first hand. ``manual_showdown``: players choose to show or muck at showdown (``Action`` SHOW/MUCK);
    otherwise the engine decides as online rooms do: a hand that can win or tie something is shown, a beaten
    hand is mucked.
    """

    rules: TableRules
    seats: Mapping[int, SeatConfig]
    positions: Positions
    manual_showdown: bool = False
    order: tuple[int, ...] = field(init=False)
    """Dealt-in seats clockwise from the button's left: the dealing order, and the PHH player order."""
    start_stacks: Mapping[int, int] = field(init=False)
    """Seat -> stack at the start of the hand (P-10: a void hand returns every stack to these)."""

    def __post_init__(self) -> None:
        seats = MappingProxyType(dict(self.seats))
        object.__setattr__(self, "seats", seats)
        if not MIN_PLAYERS <= len(seats) <= MAX_PLAYERS:
            raise InvalidConfiguration(f"a hand needs {MIN_PLAYERS} to {MAX_PLAYERS} players, not {len(seats)}")
        for number, seat in seats.items():
            if type(number) is not int or number < 1:
                raise InvalidConfiguration(f"seat numbers are positive integers, not {number!r}")
            if type(seat.stack) is not int or seat.stack <= 0:
                raise InvalidConfiguration(f"seat {number} must start with a positive integer stack")
        order = clockwise_after(self.positions.button, seats)
        object.__setattr__(self, "order", order)
        object.__setattr__(self, "start_stacks", MappingProxyType({n: s.stack for n, s in seats.items()}))
        self._check_positions(order)

    def _check_positions(self, order: tuple[int, ...]) -> None:
        button, small_blind, big_blind = self.positions.button, self.positions.small_blind, self.positions.big_blind
        if len(order) == 2:
            if not (button == small_blind and big_blind in self.seats and button in self.seats) or (
                button == big_blind
            ):
                raise InvalidConfiguration("heads-up, the button posts the small blind and the other the big blind")
            return
        expected = (small_blind, big_blind) if small_blind in self.seats else (big_blind,)
        if order[: len(expected)] != expected:
            raise InvalidConfiguration(
                f"positions {self.positions} do not fit seats {sorted(self.seats)}: clockwise from the button "
                "come the small blind (unless dead) and then the big blind"
            )

    @classmethod
    def from_button(
        cls, rules: TableRules, seats: Mapping[int, SeatConfig], button: int, *, manual_showdown: bool = False
    ) -> HandConfig:
        """A hand with the button on occupied seat ``button`` and the blinds on the next players."""
        return cls(rules, seats, initial_positions(list(seats), button), manual_showdown=manual_showdown)
