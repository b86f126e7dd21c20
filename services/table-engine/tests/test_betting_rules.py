"""Forced bets, turn order and betting limits (P-1.1, P-1.2, P-1.2a; WSOP tournament rules 87, 96, 96a, 100b)."""

from __future__ import annotations

from collections.abc import Sequence

import pytest
from table_engine.domain import (
    CALL,
    CHECK,
    FOLD,
    Action,
    ActionKind,
    ActionRejected,
    ActionTaken,
    BettingStructure,
    Event,
    ForcedBet,
    ForcedBetPosted,
    HandConfig,
    LegalActions,
    Positions,
    RejectionCode,
    SeatConfig,
    Street,
    TableRules,
)
from table_engine_scenarios import deal, play, table

FIXED = BettingStructure.FIXED_LIMIT
POT = BettingStructure.POT_LIMIT


def raise_to(amount: int) -> Action:
    return Action.raise_to(amount)


def forced_bets(events: Sequence[Event]) -> list[tuple[int, ForcedBet, int]]:
    return [(e.seat, e.kind, e.amount) for e in events if isinstance(e, ForcedBetPosted)]


# ------------------------------------------------------------------------------------------ forced bets


def test_p1_2_every_player_pays_the_ante_then_the_blinds_are_posted() -> None:
    hand = deal(table(1000, 1000, 1000, ante=10))
    assert forced_bets(hand.events) == [
        (1, ForcedBet.ANTE, 10),
        (2, ForcedBet.ANTE, 10),
        (3, ForcedBet.ANTE, 10),
        (1, ForcedBet.SMALL_BLIND, 50),
        (2, ForcedBet.BIG_BLIND, 100),
    ]
    assert hand.pot_total == 180
    assert hand.bets == {1: 50, 2: 100, 3: 0}


def test_p1_2a_big_blind_ante_is_posted_before_the_big_blind_by_the_big_blind_alone() -> None:
    hand = deal(table(1000, 150, 1000, ante=100, big_blind_ante=True))
    # The big blind cannot cover both: the ante comes first, the blind gets what is left.
    assert forced_bets(hand.events) == [
        (2, ForcedBet.BIG_BLIND_ANTE, 100),
        (1, ForcedBet.SMALL_BLIND, 50),
        (2, ForcedBet.BIG_BLIND, 50),
    ]
    assert hand.stacks[2] == 0


def test_p1_2a_big_blind_ante_is_dead_money_that_every_player_contests() -> None:
    # Seat 2 (big blind) is all-in for part of the ante alone; the dead ante is the only pot it can win.
    hand = deal(table(1000, 80, 1000, ante=100, big_blind_ante=True), ["7c2d", "AsAh", "8c3d"], "KdQs9h5c4s")
    play(hand, (3, CALL), (1, CALL))
    while hand.to_act is not None:  # the two others check it down
        play(hand, (hand.to_act, CHECK))
    result = hand.result
    assert result.pots[0].amount == 80
    assert set(result.pots[0].eligible) == {1, 2, 3}
    assert result.pots[0].shares == {2: 80}
    assert result.end_stacks[2] == 80
    assert sum(result.end_stacks.values()) == 2080


def test_p1_2a_short_big_blind_still_obliges_a_call_of_the_full_big_blind() -> None:
    hand = deal(table(1000, 60, 1000, 1000))
    legal = hand.legal_actions()
    assert legal.seat == 3
    assert legal.call == 100
    assert legal.min_raise_to == 200  # a raise is at least one big blind more


def test_p1_2a_short_big_blind_uncalled_part_of_the_full_blind_comes_back() -> None:
    hand = deal(table(1000, 60, 1000))
    play(hand, (3, CALL), (1, FOLD))
    result = hand.result
    assert result.returned == {3: 40}
    assert sum(result.end_stacks.values()) == 2060


def test_p1_2_player_all_in_from_the_blind_does_not_act() -> None:
    hand = deal(table(30, 1000, 1000))
    assert hand.stacks[1] == 0
    play(hand, (3, CALL))
    assert hand.to_act == 2  # the small blind (all-in) is skipped


# ---------------------------------------------------------------------------------------- turn order


def test_p1_2_preflop_starts_left_of_the_big_blind_and_the_big_blind_has_the_option() -> None:
    hand = deal(table(1000, 1000, 1000, 1000))
    assert hand.to_act == 3
    play(hand, (3, CALL), (4, CALL), (1, CALL))
    legal = hand.legal_actions()
    assert (legal.seat, legal.check, legal.fold, legal.min_raise_to) == (2, True, False, 200)
    play(hand, (2, CHECK))
    assert hand.street is Street.FLOP
    assert hand.to_act == 1  # after the flop the first player left of the button starts


def test_p1_2_wsop_87_heads_up_the_button_posts_the_small_blind_and_acts_first_preflop_only() -> None:
    hand = deal(table(1000, 1000))  # seat 2 is the button
    assert forced_bets(hand.events) == [(2, ForcedBet.SMALL_BLIND, 50), (1, ForcedBet.BIG_BLIND, 100)]
    assert hand.to_act == 2
    play(hand, (2, CALL), (1, CHECK))
    assert hand.street is Street.FLOP
    assert hand.to_act == 1  # the big blind acts first after the flop
    play(hand, (1, CHECK))
    assert hand.to_act == 2


def test_p1_2_dead_small_blind_nobody_posts_it_and_the_big_blind_is_first_left_of_the_button() -> None:
    rules = TableRules(BettingStructure.NO_LIMIT, 50, 100)
    seats = {2: SeatConfig("b", 1000), 3: SeatConfig("c", 1000), 5: SeatConfig("e", 1000)}
    # The small blind's seat 1 emptied (its player busted): the small blind is dead.
    config = HandConfig(rules, seats, Positions(button=5, small_blind=1, big_blind=2))
    hand = deal(config)
    assert forced_bets(hand.events) == [(2, ForcedBet.BIG_BLIND, 100)]
    assert hand.to_act == 3
    play(hand, (3, CALL), (5, CALL), (2, CHECK))
    assert hand.to_act == 2


# -------------------------------------------------------------------------------- no-limit raise sizes


def test_p1_2_minimum_raise_is_the_previous_full_raise() -> None:
    hand = deal(table(10_000, 10_000, 10_000, 10_000))
    assert hand.legal_actions().min_raise_to == 200
    play(hand, (3, raise_to(300)))  # a raise of 200
    assert hand.legal_actions().min_raise_to == 500
    play(hand, (4, raise_to(900)))  # a raise of 600
    legal = hand.legal_actions()
    assert (legal.min_raise_to, legal.max_raise_to) == (1500, 10_000)


def test_p1_2_minimum_bet_after_the_flop_is_the_big_blind() -> None:
    hand = deal(table(1000, 1000, 1000))
    play(hand, (3, CALL), (1, CALL), (2, CHECK))
    legal = hand.legal_actions()
    assert (legal.check, legal.min_raise_to, legal.max_raise_to) == (True, 100, 900)
    events = play(hand, (1, raise_to(100)))
    assert events[0] == ActionTaken(1, ActionKind.BET, 100, 100, False)


def test_p1_2_all_in_for_less_than_a_minimum_raise_is_allowed() -> None:
    hand = deal(table(1000, 1000, 250))
    play(hand, (3, raise_to(200)))
    legal = hand.legal_actions()
    assert (legal.min_raise_to, legal.max_raise_to) == (300, 1000)
    hand = deal(table(1000, 1000, 150))
    legal = hand.legal_actions()
    assert (legal.min_raise_to, legal.max_raise_to) == (150, 150)  # all-in short of a full raise


def test_wsop_96_incomplete_all_in_raise_does_not_reopen_the_betting_to_who_already_acted() -> None:
    hand = deal(table(1000, 1000, 1000, 250))
    play(hand, (3, CALL), (4, CALL), (1, CALL), (2, CHECK))  # flop, everyone has 900 left but seat 4 (150)
    play(hand, (1, raise_to(100)), (2, CALL), (3, CALL), (4, raise_to(150)))  # seat 4: all-in, 50 more
    legal = hand.legal_actions()
    assert (legal.seat, legal.call, legal.min_raise_to) == (1, 50, None)
    with pytest.raises(ActionRejected) as refusal:
        hand.act(1, raise_to(300))
    assert refusal.value.code is RejectionCode.RAISE_NOT_REOPENED


def test_wsop_96_incomplete_all_in_raise_leaves_a_full_raise_to_who_has_not_acted() -> None:
    hand = deal(table(1000, 1000, 250, 1000))  # seat 3 is short, seat 4 acts after it
    play(hand, (3, CALL), (4, CALL), (1, CALL), (2, CHECK))
    play(hand, (1, raise_to(100)), (2, CALL), (3, raise_to(150)))
    legal = hand.legal_actions()
    assert (legal.seat, legal.min_raise_to) == (4, 250)  # 150 + the last full raise (100)


def test_wsop_96a_consecutive_short_all_ins_adding_up_to_a_full_raise_reopen_the_betting() -> None:
    """WSOP 2024 rule 96a's own example: A bets 500, B raises to 1,000, C calls, D all-in 1,300, E all-in
    1,700. After A calls, B and C may raise; the minimum is the last full raise (500): to 2,200."""
    a, b, c, d, e = 1, 2, 3, 4, 5
    hand = deal(table(10_000, 10_000, 10_000, 1_400, 1_800))
    play(hand, (c, CALL), (d, CALL), (e, CALL), (a, CALL), (b, CHECK))  # 100 each pre-flop
    play(hand, (a, raise_to(500)), (b, raise_to(1_000)), (c, CALL), (d, raise_to(1_300)), (e, raise_to(1_700)))
    assert hand.stacks[d] == hand.stacks[e] == 0
    play(hand, (a, CALL))
    for seat in (b, c):
        legal = hand.legal_actions()
        assert (legal.seat, legal.call, legal.min_raise_to) == (seat, 700, 2_200)
        play(hand, (seat, CALL))


def test_wsop_96a_a_single_short_all_in_after_a_call_does_not_reopen() -> None:
    a, b, c, d = 1, 2, 3, 4
    hand = deal(table(10_000, 10_000, 10_000, 1_400))
    play(hand, (c, CALL), (d, CALL), (a, CALL), (b, CHECK))
    play(hand, (a, raise_to(500)), (b, raise_to(1_000)), (c, CALL), (d, raise_to(1_300)))
    play(hand, (a, CALL))  # A faced B's full raise, so A could have raised; B and C may not
    assert hand.legal_actions().min_raise_to is None
    assert hand.legal_actions().call == 300


# ------------------------------------------------------------------------------------------ pot-limit


def test_p1_1_pot_limit_maximum_is_the_pot_after_calling() -> None:
    hand = deal(table(10_000, 10_000, 10_000, 10_000, structure=POT))
    legal = hand.legal_actions()
    assert (legal.min_raise_to, legal.max_raise_to) == (200, 350)  # call 100, pot 250: raise 250 more
    play(hand, (3, raise_to(350)))
    legal = hand.legal_actions()
    assert (legal.min_raise_to, legal.max_raise_to) == (600, 1_200)  # 350 + (500 in the middle + 350 call)


def test_p1_1_pot_limit_minimum_bet_is_allowed_even_above_the_pot() -> None:
    hand = deal(table(10_000, 10_000, structure=POT, small_blind=1, big_blind=100))
    play(hand, (2, CALL), (1, CHECK))
    legal = hand.legal_actions()
    assert (legal.min_raise_to, legal.max_raise_to) == (100, 200)


# ---------------------------------------------------------------------------------------- fixed-limit


def test_p1_1_fixed_limit_bets_are_the_small_bet_then_the_big_bet() -> None:
    hand = deal(table(10_000, 10_000, 10_000, structure=FIXED))
    legal = hand.legal_actions()
    assert (legal.min_raise_to, legal.max_raise_to) == (200, 200)
    play(hand, (3, CALL), (1, CALL), (2, CHECK))
    assert hand.legal_actions().min_raise_to == 100  # flop: small bet
    play(hand, (1, CHECK), (2, CHECK), (3, CHECK))
    assert hand.legal_actions().min_raise_to == 200  # turn: big bet
    with pytest.raises(ActionRejected) as refusal:
        hand.act(1, raise_to(300))
    assert refusal.value.code is RejectionCode.AMOUNT_TOO_LARGE


def test_wsop_100b_fixed_limit_allows_a_bet_and_four_raises() -> None:
    hand = deal(table(10_000, 10_000, 10_000, structure=FIXED))
    play(hand, (3, CALL), (1, CALL), (2, CHECK))
    play(hand, (1, raise_to(100)), (2, raise_to(200)), (3, raise_to(300)), (1, raise_to(400)), (2, raise_to(500)))
    legal = hand.legal_actions()
    assert (legal.seat, legal.call, legal.min_raise_to) == (3, 200, None)
    with pytest.raises(ActionRejected) as refusal:
        hand.act(3, raise_to(600))
    assert refusal.value.code is RejectionCode.RAISE_CAP_REACHED


def test_wsop_100b_fixed_limit_pre_flop_the_big_blind_is_the_bet() -> None:
    hand = deal(table(10_000, 10_000, 10_000, structure=FIXED))
    play(hand, (3, raise_to(200)), (1, raise_to(300)), (2, raise_to(400)), (3, raise_to(500)))
    assert hand.legal_actions().min_raise_to is None  # the blind and four raises


def test_wsop_100b_fixed_limit_cap_is_lifted_heads_up_when_the_rules_say_so() -> None:
    hand = deal(table(10_000, 10_000, structure=FIXED))
    for total in range(200, 1_100, 100):
        play(hand, (hand.to_act or 0, raise_to(total)))
    assert hand.legal_actions().min_raise_to == 1_100
    capped = deal(table(10_000, 10_000, structure=FIXED, uncapped_heads_up=False))
    play(capped, (2, raise_to(200)), (1, raise_to(300)), (2, raise_to(400)), (1, raise_to(500)))
    assert capped.legal_actions().min_raise_to is None


def test_p1_2a_fixed_limit_all_in_of_half_a_bet_or_more_reopens_the_betting() -> None:
    hand = deal(table(10_000, 10_000, 10_000, 250, structure=FIXED))
    play(hand, (3, CALL), (4, CALL), (1, CALL), (2, CHECK))  # flop: seat 4 has 150 left, the bet is 100
    play(hand, (1, raise_to(100)), (2, CALL), (3, CALL), (4, raise_to(150)))  # all-in: half a bet more
    legal = hand.legal_actions()
    assert (legal.seat, legal.call, legal.min_raise_to) == (1, 50, 250)  # reopened: a full bet over 150


def test_p1_2a_fixed_limit_all_in_of_less_than_half_a_bet_does_not_reopen() -> None:
    hand = deal(table(10_000, 10_000, 10_000, 240, structure=FIXED))
    play(hand, (3, CALL), (4, CALL), (1, CALL), (2, CHECK))
    play(hand, (1, raise_to(100)), (2, CALL), (3, CALL), (4, raise_to(140)))  # 40 more: under half a bet
    legal = hand.legal_actions()
    assert (legal.seat, legal.call, legal.min_raise_to) == (1, 40, None)


def test_p1_2a_fixed_limit_under_half_bet_all_in_lets_who_has_not_acted_complete_the_raise() -> None:
    hand = deal(table(10_000, 10_000, 240, 10_000, structure=FIXED))
    play(hand, (3, CALL), (4, CALL), (1, CALL), (2, CHECK))
    play(hand, (1, raise_to(100)), (2, CALL), (3, raise_to(140)))
    legal = hand.legal_actions()
    assert (legal.seat, legal.call, legal.min_raise_to) == (4, 140, 200)  # the raise over the full bet


# ---------------------------------------------------------------------------------------- refusals


def test_p1_2_refusals_carry_a_code_and_a_message_and_change_nothing() -> None:
    hand = deal(table(1000, 1000, 1000))
    before = (hand.events, hand.stacks, hand.bets, hand.to_act)
    refusals = [
        (1, CALL, RejectionCode.NOT_YOUR_TURN),
        (9, CALL, RejectionCode.UNKNOWN_SEAT),
        (3, CHECK, RejectionCode.CANNOT_CHECK),
        (3, raise_to(150), RejectionCode.AMOUNT_TOO_SMALL),
        (3, raise_to(1001), RejectionCode.AMOUNT_TOO_LARGE),
        (3, Action(ActionKind.RAISE, 250.0), RejectionCode.INVALID_AMOUNT),  # type: ignore[arg-type]
        (3, Action(ActionKind.SHOW), RejectionCode.WRONG_PHASE),
        (3, Action("jump", 0), RejectionCode.UNKNOWN_ACTION),  # type: ignore[arg-type]
    ]
    for seat, action, code in refusals:
        with pytest.raises(ActionRejected) as refusal:
            hand.act(seat, action)
        assert refusal.value.code is code
        assert refusal.value.message
    assert (hand.events, hand.stacks, hand.bets, hand.to_act) == before


def test_p1_2_actions_decoded_as_plain_strings_are_accepted() -> None:
    hand = deal(table(1000, 1000, 1000))
    play(hand, (3, Action("raise", 300)), (1, Action("call")))  # type: ignore[arg-type]
    assert hand.bets == {1: 300, 2: 100, 3: 300}


def test_p1_2_fold_or_call_without_a_bet_is_refused() -> None:
    hand = deal(table(1000, 1000, 1000))
    play(hand, (3, CALL), (1, CALL))
    for action, code in ((FOLD, RejectionCode.CANNOT_FOLD), (CALL, RejectionCode.CANNOT_CALL)):
        with pytest.raises(ActionRejected) as refusal:
            hand.act(2, action)
        assert refusal.value.code is code


def test_p1_2_no_raise_when_every_opponent_is_all_in_or_when_only_a_call_is_possible() -> None:
    hand = deal(table(1000, 1000, 300))
    play(hand, (3, raise_to(300)), (1, FOLD))
    legal = hand.legal_actions()
    assert (legal.call, legal.min_raise_to) == (200, None)
    with pytest.raises(ActionRejected) as refusal:
        hand.act(2, raise_to(600))
    assert refusal.value.code is RejectionCode.NO_OPPONENT_TO_RAISE
    hand = deal(table(1000, 200, 1000))
    play(hand, (3, raise_to(500)), (1, FOLD))
    with pytest.raises(ActionRejected) as refusal:
        hand.act(2, raise_to(600))
    assert refusal.value.code is RejectionCode.STACK_TOO_SHORT_TO_RAISE


def test_p1_2_acting_after_the_end_is_refused() -> None:
    hand = deal(table(1000, 1000))
    play(hand, (2, FOLD))
    assert hand.is_complete and hand.to_act is None
    assert not hand.legal_actions().is_turn
    with pytest.raises(ActionRejected) as refusal:
        hand.act(1, CHECK)
    assert refusal.value.code is RejectionCode.HAND_COMPLETE


def test_p1_2_legal_actions_of_a_seat_that_is_not_to_act_are_empty() -> None:
    hand = deal(table(1000, 1000, 1000))
    assert hand.legal_actions(1) == LegalActions(1)
    assert not hand.legal_actions(1).is_turn
    assert hand.legal_actions(3).is_turn
