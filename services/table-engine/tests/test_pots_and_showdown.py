"""Pots, showdown and the end of a hand (P-1.2, P-1.2a, P-1.3, P-1.4, P-2.2, P-2.3, P-10; WSOP rules 70-74)."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from table_engine.domain import (
    CALL,
    CHECK,
    FOLD,
    MUCK,
    SHOW,
    Action,
    ActionRejected,
    ActionTaken,
    CardsMucked,
    CardsShown,
    Hand,
    PotAwarded,
    RejectionCode,
    Street,
    StreetDealt,
    UncalledBetReturned,
    parse_cards,
    shuffled_deck,
)
from table_engine.domain.pots import Pot, build_pots, split
from table_engine.domain.random_play import play_out
from table_engine_scenarios import deal, play, table


def raise_to(amount: int) -> Action:
    return Action.raise_to(amount)


def check_down(hand: Hand) -> None:
    """Everyone checks until the hand ends or (manual showdown) the showdown decisions begin."""
    while hand.to_act is not None and hand.street is not Street.SHOWDOWN:
        play(hand, (hand.to_act, CHECK))


# ------------------------------------------------------------------------------------------------ pots


def test_p1_2_side_pots_by_contribution_level_and_folded_chips_stay_in() -> None:
    # Seat 1 all-in for 100, seat 2 for 300; seats 3 and 4 go on, and seat 4 folds on the flop.
    hand = deal(table(100, 300, 2_000, 2_000), ["AsAh", "KsKh", "QsQh", "2c7d"], "3d8c9hJd4s")
    play(hand, (3, raise_to(500)), (4, CALL), (1, CALL), (2, CALL))
    play(hand, (3, raise_to(200)), (4, FOLD))
    result = hand.result
    assert [(pot.amount, pot.eligible, pot.shares) for pot in result.pots] == [
        (400, (1, 2, 3), {1: 400}),  # 4 x 100, seat 4's chips included
        (600, (2, 3), {2: 600}),  # 3 x 200
        (400, (3,), {3: 400}),  # seats 3 and 4 above 300
    ]
    assert result.returned == {3: 200}  # the flop bet nobody called
    assert result.end_stacks == {1: 400, 2: 600, 3: 1_900, 4: 1_500}


def test_p1_2_uncalled_bet_is_returned() -> None:
    hand = deal(table(5_000, 5_000))
    events = play(hand, (2, raise_to(1_000)), (1, FOLD))
    assert UncalledBetReturned(2, 900) in events
    assert hand.result.end_stacks == {1: 4_900, 2: 5_100}
    assert hand.result.pots[0].amount == 200


def test_p1_2a_odd_chips_go_one_each_to_the_winners_left_of_the_button() -> None:
    # Three players play the board (a straight); the pot of 305 splits 102/102/101, the extra chips going to
    # the first two players left of the button (seats 1 and 2; seat 3 has the button).
    config = table(101, 103, 101, small_blind=1, big_blind=2, ante=2, big_blind_ante=True)
    hand = deal(config, ["2c3d", "2d3h", "2h3s"], "AsKdQhJcTs")
    play(hand, (3, raise_to(101)), (1, CALL), (2, CALL))
    result = hand.result
    assert [pot.amount for pot in result.pots] == [305]
    assert result.pots[0].shares == {1: 102, 2: 102, 3: 101}


def test_p1_2a_each_pot_is_split_on_its_own() -> None:
    # Seat 2 (short) and seat 3 tie; the main pot (3 x 51 = 153) gives its odd chip to seat 2, the side pot of
    # seats 1 and 3 (2 x 50 = 100) goes to seat 3... unless seat 1 ties too. Here seat 1 loses.
    hand = deal(table(101, 51, 101, small_blind=1, big_blind=2), ["7c2d", "AsKd", "AhKc"], "AdKh9s5c3h")
    play(hand, (3, raise_to(101)), (1, CALL), (2, CALL))
    result = hand.result
    assert [(pot.amount, pot.shares) for pot in result.pots] == [(153, {2: 77, 3: 76}), (100, {3: 100})]


@given(
    contributions=st.lists(st.integers(0, 500), min_size=2, max_size=10),
    folds=st.lists(st.booleans(), min_size=10, max_size=10),
    dead=st.integers(0, 50),
)
def test_p1_2_pots_hold_every_chip_and_only_players_still_in_contest_them(
    contributions: list[int], folds: list[bool], dead: int
) -> None:
    folded = folds[: len(contributions)]
    if all(folded):
        folded[0] = False
    top = max(c for c, out in zip(contributions, folded, strict=True) if not out)
    contributions = [min(c, top) if out else c for c, out in zip(contributions, folded, strict=True)]
    pots = build_pots(contributions, folded, dead)
    assert sum(pot.amount for pot in pots) == sum(contributions) + dead
    for index, pot in enumerate(pots):
        assert pot.amount > 0 and pot.eligible
        assert all(not folded[p] for p in pot.eligible)
        if index:
            assert set(pot.eligible) < set(pots[index - 1].eligible)  # side pots narrow down


@given(amount=st.integers(0, 10_000), winners=st.integers(1, 10))
def test_p1_2a_split_gives_odd_chips_one_each_from_the_button_left(amount: int, winners: int) -> None:
    shares = split(amount, list(range(winners)))
    assert sum(chips for _, chips in shares) == amount
    chips = [c for _, c in shares]
    assert chips == sorted(chips, reverse=True) and chips[0] - chips[-1] <= 1


def test_p1_2_build_pots_merges_levels_contested_by_the_same_players() -> None:
    assert build_pots([100, 100, 50], [False, False, True]) == [Pot(250, (0, 1))]
    assert build_pots([100, 300, 300], [False, False, False], dead=20) == [Pot(320, (0, 1, 2)), Pot(400, (1, 2))]


# -------------------------------------------------------------------------------------------- showdown


def test_wsop_72_last_aggressor_on_the_river_shows_first() -> None:
    hand = deal(table(1_000, 1_000, 1_000), ["7c2d", "AsKd", "QhQc"], "AdKh9s5c3h")
    play(hand, (3, CALL), (1, CALL), (2, CHECK))
    play(hand, (1, CHECK), (2, CHECK), (3, CHECK), (1, CHECK), (2, CHECK), (3, CHECK))
    events = play(hand, (1, CHECK), (2, CHECK), (3, raise_to(100)), (1, FOLD), (2, CALL))
    reveals = [e for e in events if isinstance(e, CardsShown | CardsMucked)]
    assert reveals == [CardsShown(3, parse_cards("QhQc")), CardsShown(2, parse_cards("AsKd"))]


def test_wsop_72_without_a_river_bet_the_first_player_left_of_the_button_shows_first() -> None:
    hand = deal(table(1_000, 1_000, 1_000), ["7c2d", "AsKd", "QhQc"], "AdKh9s5c3h")
    play(hand, (3, CALL), (1, CALL), (2, CHECK))
    check_down(hand)
    reveals = [e for e in hand.events if isinstance(e, CardsShown | CardsMucked)]
    # Seat 1 shows first; seat 2 beats it and shows; seat 3 cannot win and mucks (auto showdown).
    assert reveals == [CardsShown(1, parse_cards("7c2d")), CardsShown(2, parse_cards("AsKd")), CardsMucked(3)]
    assert 3 not in hand.result.shown  # P-1.4: a mucked hand is never revealed


def test_wsop_70_all_in_hands_are_face_up_before_the_rest_of_the_board() -> None:
    hand = deal(table(500, 1_000, 1_000), ["AsAh", "KsKh", "QsQh"])
    events = play(hand, (3, raise_to(1_000)), (1, CALL), (2, CALL))
    kinds = [type(e) for e in events]
    first_board = kinds.index(StreetDealt)
    assert kinds[first_board - 3 : first_board] == [CardsShown] * 3
    assert set(hand.result.shown) == {1, 2, 3}


def test_wsop_70_an_earlier_all_in_turns_every_hand_face_up_at_the_river() -> None:
    hand = deal(table(100, 1_000, 1_000), ["2c7d", "KsKh", "QsQh"], "3d8c9hJd4s")
    play(hand, (3, CALL), (1, CALL), (2, CHECK))  # seat 1 is all-in for 100
    check_down(hand)
    assert set(hand.result.shown) == {1, 2, 3}


def test_p1_2_manual_showdown_the_first_may_concede_and_the_last_hand_wins_unseen() -> None:
    hand = deal(table(1_000, 1_000, manual_showdown=True), ["AsAh", "7c2d"], "3d8c9hJd4s")
    play(hand, (2, CALL), (1, CHECK))
    check_down(hand)
    legal = hand.legal_actions()
    assert (legal.seat, legal.show, legal.muck, legal.call) == (1, True, True, None)
    with pytest.raises(ActionRejected) as refusal:
        hand.act(1, CHECK)
    assert refusal.value.code is RejectionCode.WRONG_PHASE
    play(hand, (1, MUCK))  # seat 1 gives up its aces
    assert hand.is_complete
    assert hand.result.pots[0].shares == {2: 200}
    assert hand.result.shown == {}  # nobody's cards were seen


def test_p1_2_manual_showdown_the_best_shown_hand_wins() -> None:
    hand = deal(table(1_000, 1_000, manual_showdown=True), ["7c2d", "AsAh"], "3d8c9hJd4s")
    play(hand, (2, CALL), (1, CHECK))
    check_down(hand)
    play(hand, (1, SHOW), (2, SHOW))
    assert hand.result.pots[0].shares == {2: 200}


def test_p1_4_manual_showdown_mucked_hands_stay_hidden_and_the_shown_hand_wins() -> None:
    hand = deal(table(1_000, 1_000, 1_000, manual_showdown=True), ["AsAh", "KsKh", "QsQh"], "3d8c9hJd4s")
    play(hand, (3, CALL), (1, CALL), (2, CHECK))
    check_down(hand)
    play(hand, (1, SHOW), (2, MUCK), (3, MUCK))
    assert hand.result.pots[0].shares == {1: 300}
    assert hand.result.shown == {1: parse_cards("AsAh")}
    assert hand.visible_hole_cards(None) == {1: parse_cards("AsAh"), 2: None, 3: None}


def test_p1_2_auto_showdown_shows_a_hand_that_ties_the_shown_best() -> None:
    hand = deal(table(1_000, 1_000), ["2c3d", "2d3h"], "AsKdQhJcTs")
    play(hand, (2, CALL), (1, CHECK))
    check_down(hand)
    assert hand.result.pots[0].shares == {1: 100, 2: 100}
    assert set(hand.result.shown) == {1, 2}


# --------------------------------------------------------------------------------------- the whole hand


def test_p1_3_the_engine_deals_from_the_deck_as_given() -> None:
    deck = shuffled_deck(random.Random(7))
    hand = Hand(table(1_000, 1_000, 1_000), deck)
    assert [hand.hole_cards(seat) for seat in (1, 2, 3)] == [(deck[i], deck[i + 3]) for i in range(3)]
    play(hand, (3, CALL), (1, CALL), (2, CHECK))
    assert hand.board == (deck[7], deck[8], deck[9])  # after the burn deck[6]
    assert hand.deck == tuple(deck)


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 2**32))
def test_p1_3_a_hand_is_determined_by_its_deck_and_its_actions(seed: int) -> None:
    config = table(700, 1_500, 300, 2_000)
    deck = shuffled_deck(random.Random(seed))
    first = play_out(Hand(config, deck), random.Random(seed))
    second = Hand(config, deck)
    for taken in first.events:
        if isinstance(taken, ActionTaken):
            second.act(taken.seat, Action(taken.kind, taken.total_bet))
    assert second.events == first.events


def test_p1_4_events_carry_no_card_that_was_not_shown() -> None:
    for seed in range(200):
        hand = play_out(
            Hand(table(500, 1_000, 300, 2_000, 800), shuffled_deck(random.Random(seed))), random.Random(seed)
        )
        public = set(hand.board) | {card for cards in hand.shown_cards().values() for card in cards}
        for event in hand.events:
            cards = getattr(event, "cards", ()) or ()
            assert set(cards) <= public, event
        for seat in hand.config.order:
            visible = hand.visible_hole_cards(seat)
            for other, cards in visible.items():
                assert cards is None or other == seat or other in hand.shown_cards()
            assert hand.visible_hole_cards(None) == {
                other: hand.shown_cards().get(other) for other in hand.config.order
            }


def test_p2_2_players_busting_in_the_same_hand_rank_by_their_starting_stacks() -> None:
    hand = deal(table(300, 200, 5_000, 300), ["2c7d", "3c8d", "AsAh", "4c9d"], "KdQsJh8c6s")
    play(hand, (3, raise_to(5_000)), (4, CALL), (1, CALL), (2, CALL))
    # Seats 1 and 4 both started with 300: P-2.3, the button (seat 4) ranks higher. Seat 2 had less.
    assert hand.result.busted == (4, 1, 2)


def test_p2_3_ties_rank_clockwise_from_the_button() -> None:
    hand = deal(table(300, 300, 300, 5_000), ["2c7d", "3c8d", "4c9d", "AsAh"], "KdQsJh8c6s")
    play(hand, (3, raise_to(300)), (4, CALL), (1, CALL), (2, CALL))
    assert hand.result.busted == (1, 2, 3)  # after the button (seat 4): seat 1, then 2, then 3


def test_p10_the_configuration_keeps_the_start_stacks_to_void_a_hand() -> None:
    config = table(1_000, 2_000, 3_000)
    hand = deal(config)
    play(hand, (3, raise_to(3_000)), (1, CALL))
    assert hand.stacks != dict(config.start_stacks)
    assert dict(config.start_stacks) == {1: 1_000, 2: 2_000, 3: 3_000}  # what a void hand returns to


def test_p1_2_result_reports_net_and_winnings() -> None:
    hand = deal(table(1_000, 1_000), ["AsAh", "7c2d"], "3d8c9hJd4s")
    play(hand, (2, raise_to(1_000)), (1, CALL))
    result = hand.result
    assert (result.net(1), result.net(2)) == (1_000, -1_000)
    assert result.winnings == {1: 2_000}
    assert [e for e in hand.events if isinstance(e, PotAwarded)] == [PotAwarded(0, 2_000, (1, 2), ((1, 2_000),))]
