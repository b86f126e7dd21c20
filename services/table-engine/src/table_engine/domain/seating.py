"""Where the button and the blinds go, hand after hand: the dead-button rule (P-1.2).

Seat numbers increase clockwise and wrap around. Tournament play uses a dead button (WSOP rule 85): between
hands the big blind always moves to the next player clockwise, the small blind takes the seat the big blind
had, and the button the seat the small blind had. When those seats have emptied (a player busted, left or was
moved away), the small blind is *dead* (nobody posts it) or the button is *dead* (it sits on an empty seat),
and nobody skips or pays the big blind twice.

A player who arrives (joins or is moved in, P-6.2/P-6.3) between the button and the small blind would play a
hand in late position without having paid the blinds; WSOP rule 65: "the only place they cannot get a hand is
between the small blind and the button". Such a player sits out until the button passes — unless waiting would
leave fewer than two players dealt in (most of the last hand's players gone, the new ones all in that stretch):
the button then moves back to the last player before the small blind, and everyone plays.

Heads-up (WSOP rule 87) the button posts the small blind and acts first pre-flop; the big blind keeps
alternating, so nobody takes it twice in a row when a table goes heads-up.

Pure functions: the caller (the table service) keeps the previous ``Positions`` and the occupied seats.
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Collection, Iterable
from dataclasses import dataclass
from typing import NamedTuple

from table_engine.domain.errors import InvalidConfiguration


class Positions(NamedTuple):
    """Button, small-blind and big-blind seats of one hand.

    ``button`` may be an empty seat (dead button). ``small_blind`` is the small blind's seat even when nobody
    posts it: the small blind is dead when that seat is not dealt in. Heads-up, ``button == small_blind``.
    """

    button: int
    small_blind: int
    big_blind: int


@dataclass(frozen=True, slots=True)
class NextHand:
    """The positions of the next hand, who is dealt in, and who waits for the button to pass."""

    positions: Positions
    dealt_in: tuple[int, ...]
    waiting: tuple[int, ...]


def clockwise_after(seat: int, seats: Iterable[int]) -> tuple[int, ...]:
    """``seats`` in clockwise order, starting with the first one after ``seat`` (``seat`` itself comes last)."""
    ordered = sorted(set(seats))
    split = bisect_right(ordered, seat)
    return tuple(ordered[split:] + ordered[:split])


def _strictly_between(first: int, last: int, seat: int) -> bool:
    """Whether ``seat`` lies clockwise strictly after ``first`` and strictly before ``last``."""
    if first < last:
        return first < seat < last
    return seat > first or seat < last


def initial_positions(seats: Collection[int], button: int) -> Positions:
    """Positions of a table's first hand (or after a redraw), with the button on occupied seat ``button``."""
    if button not in seats:
        raise InvalidConfiguration(f"the first button must be on an occupied seat, not seat {button}")
    if len(seats) < 2:
        raise InvalidConfiguration("a hand needs at least two players")
    following = clockwise_after(button, seats)
    if len(seats) == 2:
        return Positions(button=button, small_blind=button, big_blind=following[0])
    return Positions(button=button, small_blind=following[0], big_blind=following[1])


def next_positions(previous: Positions, seats: Collection[int]) -> NextHand:
    """Positions for the next hand under the dead-button rule, ``seats`` being the occupied seats now.

    Raises ``InvalidConfiguration`` when fewer than two players could be dealt in.
    """
    if len(seats) < 2:
        raise InvalidConfiguration("a hand needs at least two players")
    big_blind = clockwise_after(previous.big_blind, seats)[0]
    if len(seats) == 2:
        return _heads_up(big_blind, tuple(sorted(seats)), ())
    small_blind = previous.big_blind
    button = previous.small_blind
    if previous.button == previous.small_blind:
        # Coming out of heads-up, where the button was also the small blind: that seat may now be the big
        # blind's, or empty and between the small and the big blind.
        button = _last_before_small_blind(seats, small_blind, big_blind)
    waiting = tuple(s for s in sorted(seats) if _strictly_between(button, small_blind, s))
    if big_blind in waiting or len(seats) - len(waiting) < 2:
        # Nearly everyone who played the last hand has gone (busted, or moved to other tables) and the players
        # moved in sit between the button and the small blind: waiting for the button to pass would leave no
        # hand to deal (or the big blind itself waiting), and the table would stop for good — a 3,000-player
        # capacity run stalled on it (issue 14). The button moves back instead, so that nobody waits.
        button = _last_before_small_blind(seats, small_blind, big_blind)
        waiting = ()
    dealt_in = tuple(s for s in sorted(seats) if s not in waiting)
    if len(dealt_in) == 2:
        return _heads_up(big_blind, dealt_in, waiting)
    return NextHand(Positions(button, small_blind, big_blind), dealt_in, waiting)


def _last_before_small_blind(seats: Collection[int], small_blind: int, big_blind: int) -> int:
    """The last player before the small blind's seat, clockwise, other than both blinds: as the button there,
    nobody sits between the button and the small blind, nobody is skipped, and the order button, small blind,
    big blind holds."""
    return [s for s in clockwise_after(small_blind, seats) if s not in (big_blind, small_blind)][-1]


def _heads_up(big_blind: int, dealt_in: tuple[int, ...], waiting: tuple[int, ...]) -> NextHand:
    other = dealt_in[0] if dealt_in[1] == big_blind else dealt_in[1]
    return NextHand(Positions(other, other, big_blind), dealt_in, waiting)
