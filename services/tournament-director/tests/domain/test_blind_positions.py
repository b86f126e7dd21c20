"""Where the next big blinds fall (moving button, P-1.2), as P-6.3 balancing uses it."""

from tournament_director.domain.blind_positions import (
    hands_until_big_blind,
    next_big_blind_seat,
    soonest_big_blind_seat,
)


def test_p6_3_next_big_blind_is_two_seats_after_the_next_button() -> None:
    # Button was on 3: next button 5, small blind 7, big blind 1 (clockwise wraps).
    assert next_big_blind_seat({1, 3, 5, 7}, button_seat=3) == 1


def test_p6_3_next_big_blind_when_the_button_player_left() -> None:
    # The button's seat 3 is empty now: the button moves to 4, blinds 6 and 1.
    assert next_big_blind_seat({1, 4, 6}, button_seat=3) == 1


def test_p1_2_heads_up_button_posts_the_small_blind() -> None:
    assert next_big_blind_seat({2, 6}, button_seat=2) == 2


def test_p6_3_table_without_a_hand_yet_starts_its_button_on_the_lowest_seat() -> None:
    assert next_big_blind_seat({2, 4, 6}, button_seat=None) == 6


def test_p1_2_big_blind_goes_round_the_table_one_seat_per_hand() -> None:
    assert [hands_until_big_blind({1, 3, 5, 7}, 3, seat) for seat in (1, 3, 5, 7)] == [1, 2, 3, 4]


def test_p6_3_newcomer_seated_where_they_post_the_big_blind_next() -> None:
    # Seats 1, 2, 5, 6 taken, button on 2: next button 5, small blind 6. A newcomer on 7, 8 or 9 would be the
    # next big blind; on 3 or 4 they would take the button and skip the blinds. The first of 7, 8, 9 wins.
    assert soonest_big_blind_seat({1, 2, 5, 6}, free={3, 4, 7, 8, 9}, button_seat=2) == 7


def test_p6_3_when_only_the_small_blind_seat_is_free_the_big_blind_is_an_orbit_away() -> None:
    occupied = {1, 2, 3, 4, 5, 6, 7, 9}
    assert soonest_big_blind_seat(occupied, free={8}, button_seat=6) == 8
    assert hands_until_big_blind({*occupied, 8}, 6, 8) == 9
