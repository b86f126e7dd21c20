"""Where the big blind falls in the next hands of a table — what P-6.3 balancing needs.

Convention (the moving button of P-1.2): seats are numbered 1..seats_per_table clockwise. Before each hand the
button moves to the next occupied seat clockwise; with three or more players the small blind is the next
occupied seat after the button and the big blind the one after that; heads-up the button posts the small
blind and the other player the big blind. `button_seat` is the button of the table's latest hand (in progress
or completed); a table that has not dealt yet counts as if its button were just before seat 1, so its first
button is its lowest occupied seat.
"""

from __future__ import annotations

from collections.abc import Collection, Iterator
from itertools import islice


def _next_occupied(seats: list[int], after: int) -> int:
    return next((seat for seat in seats if seat > after), seats[0])


def _big_blinds(occupied: Collection[int], button_seat: int | None) -> Iterator[int]:
    """The big-blind seat of each coming hand, the next hand first."""
    seats = sorted(occupied)
    if len(seats) < 2:
        raise ValueError("a hand needs two players")
    button = 0 if button_seat is None else button_seat
    while True:
        button = _next_occupied(seats, button)
        small_blind = button if len(seats) == 2 else _next_occupied(seats, button)
        yield _next_occupied(seats, small_blind)


def next_big_blind_seat(occupied: Collection[int], button_seat: int | None) -> int:
    """The seat that posts the big blind in the table's next hand."""
    return next(_big_blinds(occupied, button_seat))


def hands_until_big_blind(occupied: Collection[int], button_seat: int | None, seat: int) -> int:
    """In how many hands the player at `seat` (one of `occupied`) posts the big blind: 1 = the next hand."""
    for hands, big_blind in enumerate(islice(_big_blinds(occupied, button_seat), len(occupied)), start=1):
        if big_blind == seat:
            return hands
    raise ValueError(f"seat {seat} is not occupied")


def soonest_big_blind_seat(occupied: Collection[int], free: Collection[int], button_seat: int | None) -> int:
    """Of the `free` seats, the one where a newcomer posts the big blind soonest (P-6.3); among equals, the
    first clockwise from the button."""
    after = 0 if button_seat is None else button_seat
    clockwise = sorted(free, key=lambda seat: (seat <= after, seat))
    return min(clockwise, key=lambda seat: hands_until_big_blind({*occupied, seat}, button_seat, seat))
