"""Properties of any hand (P-1.1, P-1.2, P-1.2a): random tables, random legal play, invariants at every step."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from table_engine.domain import (
    Action,
    ActionKind,
    ActionRejected,
    BettingStructure,
    Hand,
    HandConfig,
    InvalidConfiguration,
    Positions,
    RejectionCode,
    SeatConfig,
    TableRules,
    next_positions,
    shuffled_deck,
)
from table_engine.domain.random_play import random_action


@st.composite
def hand_configs(draw: st.DrawFn) -> HandConfig:
    """Any structure, 2-10 players, antes or big-blind antes, stacks from 1 chip up, live or dead blinds."""
    structure = draw(st.sampled_from(list(BettingStructure)))
    big_blind = draw(st.integers(2, 200))
    small_blind = draw(st.integers(1, big_blind))
    ante_kind = draw(st.sampled_from(("none", "ante", "big_blind_ante")))
    ante = 0 if ante_kind == "none" else draw(st.integers(1, big_blind))
    rules = TableRules(structure, small_blind, big_blind, ante, ante_kind == "big_blind_ante")
    occupied = draw(st.lists(st.integers(1, 10), min_size=2, max_size=10, unique=True))
    stacks = draw(st.lists(st.integers(1, 60 * big_blind), min_size=len(occupied), max_size=len(occupied)))
    # Positions as the dead-button rule leaves them after a random previous hand.
    previous_big_blind = draw(st.integers(1, 10))
    previous = Positions(draw(st.integers(1, 10)), draw(st.integers(1, 10)), previous_big_blind)
    if previous.small_blind == previous_big_blind:
        previous = Positions(previous.button, previous_big_blind % 10 + 1, previous_big_blind)
    try:
        following = next_positions(previous, occupied)
        seats = {seat: SeatConfig(f"player-{seat}", stacks[i]) for i, seat in enumerate(occupied)}
        dealt = {seat: seats[seat] for seat in following.dealt_in}
        return HandConfig(rules, dealt, following.positions)
    except InvalidConfiguration:
        seats = {seat: SeatConfig(f"player-{seat}", stacks[i]) for i, seat in enumerate(occupied)}
        return HandConfig.from_button(rules, seats, button=occupied[0])


def chips_in_play(hand: Hand) -> int:
    return sum(hand.stacks.values()) + hand.pot_total


def assert_refused(hand: Hand, seat: int, action: Action, code: RejectionCode) -> None:
    before = (hand.events, hand.stacks, hand.bets, hand.to_act)
    with pytest.raises(ActionRejected) as refusal:
        hand.act(seat, action)
    assert refusal.value.code is code
    assert (hand.events, hand.stacks, hand.bets, hand.to_act) == before


@settings(max_examples=250, deadline=None)
@given(config=hand_configs(), seed=st.integers(0, 2**32))
def test_p1_2_random_hands_keep_every_chip_and_offer_exact_bounds(config: HandConfig, seed: int) -> None:
    rng = random.Random(seed)
    hand = Hand(config, shuffled_deck(rng))
    total = sum(config.start_stacks.values())
    while (seat := hand.to_act) is not None:
        assert chips_in_play(hand) == total
        legal = hand.legal_actions()
        assert legal.seat == seat and legal.is_turn
        if legal.min_raise_to is not None and legal.max_raise_to is not None:
            assert legal.min_raise_to <= legal.max_raise_to <= hand.stacks[seat] + hand.bets[seat]
            assert_refused(hand, seat, Action.raise_to(legal.min_raise_to - 1), RejectionCode.AMOUNT_TOO_SMALL)
            assert_refused(hand, seat, Action.raise_to(legal.max_raise_to + 1), RejectionCode.AMOUNT_TOO_LARGE)
        if legal.call is not None:
            assert 0 < legal.call <= hand.stacks[seat]
            assert_refused(hand, seat, Action(ActionKind.CHECK), RejectionCode.CANNOT_CHECK)
        if legal.check:
            assert_refused(hand, seat, Action(ActionKind.FOLD), RejectionCode.CANNOT_FOLD)
        hand.act(seat, random_action(legal, rng))
    result = hand.result
    assert sum(result.end_stacks.values()) == total
    assert all(stack >= 0 for stack in result.end_stacks.values())
    assert set(result.busted) == {seat for seat, stack in result.end_stacks.items() if stack == 0}
    for pot in result.pots:
        assert pot.amount > 0 and set(pot.shares) <= set(pot.eligible)
        assert sum(pot.shares.values()) == pot.amount
        assert max(pot.shares.values()) - min(pot.shares.values()) <= 1
    assert set(result.board) <= set(hand.deck)
    assert not hand.folded & set(result.winnings)


@settings(max_examples=100, deadline=None)
@given(config=hand_configs(), seed=st.integers(0, 2**32))
def test_p1_2_pots_during_the_hand_hold_the_collected_chips(config: HandConfig, seed: int) -> None:
    rng = random.Random(seed)
    hand = Hand(config, shuffled_deck(rng))
    while (seat := hand.to_act) is not None:
        pots = hand.pots
        assert sum(pot.amount for pot in pots) == hand.pot_total - sum(hand.bets.values())
        assert all(pot.eligible and not set(pot.eligible) & hand.folded for pot in pots)
        hand.act(seat, random_action(hand.legal_actions(), rng))
    assert hand.pots == ()


@pytest.mark.parametrize(
    ("rules", "message"),
    [
        (lambda: TableRules(BettingStructure.NO_LIMIT, 0, 100), "blinds"),
        (lambda: TableRules(BettingStructure.NO_LIMIT, 200, 100), "blinds"),
        (lambda: TableRules(BettingStructure.NO_LIMIT, 50, 100, big_blind_ante=True), "ante"),
        (lambda: TableRules(BettingStructure.NO_LIMIT, 50, 100, small_bet=100), "fixed-limit"),
        (lambda: TableRules(BettingStructure.FIXED_LIMIT, 50, 100, raise_cap=-1), "raise_cap"),
        (lambda: TableRules(BettingStructure.NO_LIMIT, 50, 100, ante=-1), "ante"),
    ],
)
def test_p1_1_invalid_rules_are_refused(rules: object, message: str) -> None:
    with pytest.raises(InvalidConfiguration, match=message):
        rules()  # type: ignore[operator]


def test_p1_1_invalid_hands_are_refused() -> None:
    rules = TableRules(BettingStructure.NO_LIMIT, 50, 100)
    seats = {1: SeatConfig("a", 100), 2: SeatConfig("b", 100), 3: SeatConfig("c", 100)}
    with pytest.raises(InvalidConfiguration, match="positions"):
        HandConfig(rules, seats, Positions(button=3, small_blind=2, big_blind=1))
    with pytest.raises(InvalidConfiguration, match="heads-up"):
        HandConfig(rules, {1: seats[1], 2: seats[2]}, Positions(button=2, small_blind=1, big_blind=2))
    with pytest.raises(InvalidConfiguration, match="2 to 10"):
        HandConfig.from_button(rules, {n: SeatConfig("x", 100) for n in range(1, 12)}, button=1)
    with pytest.raises(InvalidConfiguration, match="stack"):
        HandConfig.from_button(rules, {1: SeatConfig("a", 0), 2: seats[2]}, button=1)
    config = HandConfig.from_button(rules, seats, button=3)
    with pytest.raises(InvalidConfiguration, match="deck"):
        Hand(config, list(range(13)))
