"""Button and blinds between hands: the dead-button rule (P-1.2; WSOP rules 65, 85, 87)."""

from __future__ import annotations

import itertools
import random

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st
from table_engine.domain import (
    BettingStructure,
    HandConfig,
    InvalidConfiguration,
    Positions,
    SeatConfig,
    TableRules,
    initial_positions,
    next_positions,
)
from table_engine.domain.seating import clockwise_after

RULES = TableRules(BettingStructure.NO_LIMIT, 50, 100)


def config_for(positions: Positions, seats: tuple[int, ...]) -> HandConfig:
    return HandConfig(RULES, {seat: SeatConfig(f"p{seat}", 1_000) for seat in seats}, positions)


def test_p1_2_first_hand_blinds_follow_the_button() -> None:
    assert initial_positions([1, 4, 6, 9], button=9) == Positions(9, 1, 4)
    assert initial_positions([4, 6], button=6) == Positions(6, 6, 4)  # heads-up: the button is the small blind
    with pytest.raises(InvalidConfiguration):
        initial_positions([1, 4], button=2)


def test_p1_2_button_and_blinds_move_one_player_clockwise() -> None:
    following = next_positions(Positions(1, 3, 5), [1, 3, 5, 7])
    assert following.positions == Positions(3, 5, 7)
    assert following.dealt_in == (1, 3, 5, 7)
    assert following.waiting == ()


def test_p1_2_dead_small_blind_when_the_big_blind_left() -> None:
    following = next_positions(Positions(1, 3, 5), [1, 3, 7])  # seat 5 busted in the big blind
    assert following.positions == Positions(3, 5, 7)  # nobody posts the small blind
    config = config_for(following.positions, following.dealt_in)
    assert config.order == (7, 1, 3)


def test_p1_2_dead_button_when_the_small_blind_left() -> None:
    following = next_positions(Positions(1, 3, 5), [1, 5, 7])  # seat 3 busted in the small blind
    assert following.positions == Positions(3, 5, 7)  # the button stays on the empty seat 3
    assert config_for(following.positions, following.dealt_in).order == (5, 7, 1)


def test_p1_2_the_button_moves_on_normally_when_the_button_left() -> None:
    assert next_positions(Positions(1, 3, 5), [3, 5, 7]).positions == Positions(3, 5, 7)


def test_p1_2_wsop_65_newcomer_between_the_button_and_the_small_blind_waits() -> None:
    following = next_positions(Positions(1, 3, 5), [1, 2, 3, 4, 5, 7])
    assert following.positions == Positions(3, 5, 7)
    assert following.waiting == (4,)  # would play the hand after the button without paying a blind
    assert following.dealt_in == (1, 2, 3, 5, 7)  # seat 2 sits before the button: it plays


def test_p1_2_wsop_65_newcomer_may_take_the_big_blind_at_once() -> None:
    following = next_positions(Positions(1, 3, 5), [1, 3, 5, 6, 7])
    assert following.positions == Positions(3, 5, 6)


def test_p1_2_wsop_87_going_heads_up_nobody_takes_the_big_blind_twice() -> None:
    for busted, expected in ((1, Positions(5, 5, 3)), (3, Positions(5, 5, 1)), (5, Positions(3, 3, 1))):
        seats = [s for s in (1, 3, 5) if s != busted]
        following = next_positions(Positions(1, 3, 5), seats)
        assert following.positions == expected
        assert following.positions.big_blind != 5  # seat 5 just paid it
        config_for(following.positions, following.dealt_in)


def test_p1_2_heads_up_the_big_blind_alternates() -> None:
    positions = initial_positions([2, 7], button=2)
    big_blinds = []
    for _ in range(4):
        big_blinds.append(positions.big_blind)
        positions = next_positions(positions, [2, 7]).positions
        assert positions.button == positions.small_blind
    assert big_blinds == [7, 2, 7, 2]


def test_p1_2_leaving_heads_up_when_a_player_joins() -> None:
    following = next_positions(Positions(1, 1, 3), [1, 2, 3])  # seat 2 sits down
    assert following.positions == Positions(2, 3, 1)
    config_for(following.positions, following.dealt_in)
    following = next_positions(Positions(1, 1, 3), [1, 3, 4])  # seat 4 sits down after the big blind
    assert following.positions == Positions(1, 3, 4)


def test_p1_2_a_hand_needs_two_players() -> None:
    with pytest.raises(InvalidConfiguration):
        next_positions(Positions(1, 3, 5), [5])


def test_clockwise_after_wraps_around() -> None:
    assert clockwise_after(5, [1, 3, 5, 7]) == (7, 1, 3, 5)
    assert clockwise_after(4, [1, 3, 5, 7]) == (5, 7, 1, 3)


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 2**32))
@example(
    seed=1265
)  # heads-up, then the button's seat empties as a player joins: the button was left between the blinds
def test_p1_2_dead_button_over_many_hands_nobody_skips_or_repeats_the_big_blind(seed: int) -> None:
    """Players bust and arrive at random; every hand's positions are playable, the big blind moves to the
    next player each hand, and a player who stays never pays it twice in a row."""
    rng = random.Random(seed)
    seats = set(rng.sample(range(1, 11), rng.randint(2, 10)))
    positions = initial_positions(sorted(seats), rng.choice(sorted(seats)))
    previous_big_blind = positions.big_blind
    for _ in range(40):
        if len(seats) > 2 and rng.random() < 0.3:
            seats.discard(rng.choice(sorted(seats)))
        if len(seats) < 10 and rng.random() < 0.2:
            seats.add(rng.choice([s for s in range(1, 11) if s not in seats]))
        following = next_positions(positions, sorted(seats))
        positions = following.positions
        assert set(following.dealt_in) | set(following.waiting) == seats
        config = config_for(positions, following.dealt_in)  # validates the positions
        assert positions.big_blind == clockwise_after(previous_big_blind, seats)[0]
        if len(following.dealt_in) == 2:
            assert positions.button == positions.small_blind
        assert positions.big_blind != previous_big_blind
        assert config.order[-1] == positions.button or positions.button not in following.dealt_in
        previous_big_blind = positions.big_blind


def test_p1_2_players_moved_in_play_at_once_when_waiting_would_leave_no_hand() -> None:
    """Three-handed, the small and the big blind bust; two players are moved in at seats 3 and 4, between the
    seats the button and the dead small blind move to. Waiting for the button (WSOP rule 65) would deal the old
    button alone: the table would never deal again (a 3,000-player capacity run stalled on it, issue 14). The
    button moves back to the last player before the small blind instead: everyone plays, and the big blind is
    the next player's."""
    following = next_positions(Positions(1, 2, 5), [1, 3, 4])
    assert following.positions == Positions(4, 5, 1)  # the small blind is dead
    assert following.dealt_in == (1, 3, 4)
    assert following.waiting == ()
    config_for(following.positions, following.dealt_in)


def test_p1_2_the_big_blind_never_waits() -> None:
    """Everyone after the old big blind is gone: the big blind wraps round to a seat between the button and the
    small blind, and plays as the big blind."""
    following = next_positions(Positions(1, 2, 5), [3, 4, 5])
    assert following.positions == Positions(4, 5, 3)
    assert following.dealt_in == (3, 4, 5)
    config_for(following.positions, following.dealt_in)


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_p1_2_every_change_of_players_between_hands_can_deal(players: int) -> None:
    """Whoever left and whoever arrived between two hands at a nine-seat table (every previous positions, every
    set of `players` occupied seats): the next hand's positions are playable, at least two players are dealt in,
    and the big blind is the next player after the last one."""
    previous = [Positions(b, s, bb) for b, s, bb in itertools.permutations(range(1, 10), 3)]
    previous += [Positions(b, b, bb) for b, bb in itertools.permutations(range(1, 10), 2)]
    for positions in previous:
        for seats in itertools.combinations(range(1, 10), players):
            following = next_positions(positions, seats)
            assert set(following.dealt_in) | set(following.waiting) == set(seats)
            assert len(following.dealt_in) >= 2
            assert following.positions.big_blind == clockwise_after(positions.big_blind, seats)[0]
            config_for(following.positions, following.dealt_in)
