"""Differential tests against pokerkit (P-1.2), with the departures of P-1.2a filtered out, never copied.

Many random hands (2 to 9 players, unequal and often short stacks so that side pots appear, antes and big-blind
antes) are played with the same cards and the same random legal actions in both engines. Before every action
we compare whose turn it is, fold/check/call, the call amount, the minimum and maximum raise, the pots, stacks
and bets; at the end, the final stacks.

Where the platform's rules (P-1.2a, WSOP) differ from pokerkit's we stop comparing that hand, and count why:
- ``short_big_blind``: a big blind all-in for less than a full big blind (P-1.2a: the others still call the
  full big blind; pokerkit lets them call the short amount). Such hands are skipped.
- ``odd_chips``: a split pot with odd chips, when there are two or more of them or the hand has side pots
  (P-1.2a: each pot is split on its own, its odd chips one each to the winners from the button's left;
  pokerkit gives them all to the first winner, and merges pots whose contestants are the same once the
  losing hands are killed).
- ``fixed_limit_short_all_in``: a fixed-limit all-in raise short of a full bet (P-1.2a: half a bet or more
  reopens the betting like a full bet, less does not).
- ``fixed_limit_fifth_bet``: a fifth bet on the flop, turn or river in fixed-limit (WSOP rule 100b: a bet and
  four raises; pokerkit allows a bet and three raises after the flop).
- ``short_first_bet``: an all-in bet below the minimum bet, or an all-in raise short of a full raise, as the
  first bet of its round while someone has already acted in it (WSOP 96: it does not reopen the betting;
  pokerkit starts each round with a "last raise" of 0, so it treats any first bet as a full one).
"""

from __future__ import annotations

import random
from collections import Counter

import pytest
from pokerkit import Automation, FixedLimitTexasHoldem, NoLimitTexasHoldem, State
from pokerkit.games import PotLimitPokerMixin, TexasHoldemMixin, UnfixedLimitHoldem
from table_engine.domain import (
    CALL,
    CHECK,
    FOLD,
    ActionKind,
    ActionTaken,
    BettingStructure,
    Event,
    Hand,
    HandConfig,
    SeatConfig,
    StreetDealt,
    TableRules,
    cards_text,
    shuffled_deck,
)
from table_engine.domain.random_play import play_out, random_action

HANDS_PER_STRUCTURE = 300
AUTOMATIONS = (
    Automation.ANTE_POSTING,
    Automation.BET_COLLECTION,
    Automation.BLIND_OR_STRADDLE_POSTING,
    Automation.HOLE_CARDS_SHOWING_OR_MUCKING,
    Automation.HAND_KILLING,
    Automation.CHIPS_PUSHING,
    Automation.CHIPS_PULLING,
)


class PotLimitTexasHoldem(PotLimitPokerMixin, TexasHoldemMixin, UnfixedLimitHoldem):
    """pokerkit ships no pot-limit Texas hold'em class; this is its no-limit one with the pot-limit mixin."""


class Departure(Exception):
    """A situation where P-1.2a or WSOP rules differ from pokerkit: stop comparing this hand."""


def random_config(rng: random.Random, structure: BettingStructure) -> HandConfig:
    players = rng.randint(2, 9)
    big_blind = rng.choice((2, 10, 100))
    ante_kind = rng.choice(("none", "ante", "big_blind_ante"))
    ante = {"none": 0, "ante": max(1, big_blind // 10), "big_blind_ante": big_blind}[ante_kind]
    rules = TableRules(
        structure,
        small_blind=big_blind // 2,
        big_blind=big_blind,
        ante=ante,
        big_blind_ante=ante_kind == "big_blind_ante",
        raise_cap=4 if structure is BettingStructure.FIXED_LIMIT else None,
        uncapped_heads_up=False,
    )
    # Unequal stacks, a fair share of them short, so that all-ins and side pots are common.
    stacks = [rng.choice((rng.randint(1, 8 * big_blind), rng.randint(1, 80 * big_blind))) for _ in range(players)]
    seats = {number: SeatConfig(f"player-{number}", stack) for number, stack in enumerate(stacks, 1)}
    return HandConfig.from_button(rules, seats, button=players)


def pokerkit_state(config: HandConfig) -> State:
    rules = config.rules
    order = config.order
    antes = [0] * len(order)
    if rules.big_blind_ante:
        antes[order.index(config.positions.big_blind)] = rules.ante
    elif rules.ante:
        antes = [rules.ante] * len(order)
    if len(order) == 2:
        antes.reverse()  # pokerkit, like PHH, applies forced bets reversed heads-up
    blinds = (rules.small_blind, rules.big_blind)
    stacks = [config.seats[seat].stack for seat in order]
    trimming = not rules.big_blind_ante
    if rules.structure is BettingStructure.FIXED_LIMIT:
        game = FixedLimitTexasHoldem(AUTOMATIONS, trimming, antes, blinds, rules.limit_small_bet, rules.limit_big_bet)
        return game(stacks, len(order))
    kind = NoLimitTexasHoldem if rules.structure is BettingStructure.NO_LIMIT else PotLimitTexasHoldem
    return kind(AUTOMATIONS, trimming, antes, blinds, rules.big_blind)(stacks, len(order))


def by_position(hand: Hand, values: dict[int, int]) -> list[int]:
    return [values[seat] for seat in hand.config.order]


def sync(state: State, hand: Hand) -> None:
    """Bring pokerkit to where the engine is: deal what the engine dealt (pokerkit burns and deals on
    request), and make the checks pokerkit asks for although there is no choice (a player whose every
    opponent is all-in); the engine does not ask for those."""
    expected = hand.config.order.index(hand.to_act) if hand.to_act is not None else None
    while True:
        if state.can_burn_card():
            state.burn_card("??")
            dealt = len(state.board_cards)
            state.deal_board(cards_text(hand.board[dealt : dealt + (3 if dealt == 0 else 1)]))
        elif (
            state.actor_index is not None
            and state.actor_index != expected
            and state.checking_or_calling_amount == 0
            and state.min_completion_betting_or_raising_to_amount is None
        ):
            state.check_or_call()
        else:
            return


def compare_turn(state: State, hand: Hand) -> None:
    legal = hand.legal_actions()
    position = hand.config.order.index(legal.seat)
    assert state.actor_index == position
    assert state.stacks == by_position(hand, hand.stacks)
    assert state.bets == by_position(hand, hand.bets)
    assert list(state.pot_amounts) == [pot.amount for pot in hand.pots]
    assert state.can_fold() == legal.fold
    expected_call = 0 if legal.check else legal.call
    assert state.checking_or_calling_amount == expected_call
    assert (state.min_completion_betting_or_raising_to_amount, state.max_completion_betting_or_raising_to_amount) == (
        legal.min_raise_to,
        legal.max_raise_to,
    )


def round_raises(hand: Hand) -> list[ActionTaken]:
    """The bets and raises of the current betting round, in order."""
    raises: list[ActionTaken] = []
    for item in hand.events:
        if isinstance(item, StreetDealt):
            raises = []
        elif isinstance(item, ActionTaken) and item.kind in (ActionKind.BET, ActionKind.RAISE):
            raises.append(item)
    return raises


def check_departures(hand: Hand, events: list[Event]) -> None:
    """Raise ``Departure`` if the action just taken is one where the rules differ from pokerkit's."""
    rules = hand.config.rules
    big_blind = rules.big_blind
    for event in events:
        if not isinstance(event, ActionTaken) or event.kind not in (ActionKind.BET, ActionKind.RAISE):
            continue
        if rules.is_fixed_limit and event.all_in:
            raise Departure("fixed_limit_short_all_in")
        full = 2 * big_blind if not hand.board else big_blind
        if event.all_in and event.total_bet < full and round_raises(hand)[:1] == [event]:
            raise Departure("short_first_bet")


def fifth_bet_possible(hand: Hand) -> bool:
    """Fixed-limit, after the flop, four bets made and a fifth allowed (WSOP 100b) but not by pokerkit."""
    if not hand.config.rules.is_fixed_limit or not hand.board:
        return False
    return hand.legal_actions().can_raise and len(round_raises(hand)) >= 4


def play_both(config: HandConfig, rng: random.Random) -> str:
    """Play one hand in both engines; 'compared' or the reason comparison stopped."""
    hand = Hand(config, shuffled_deck(rng))
    big_blind_seat = config.positions.big_blind
    if hand.bets[big_blind_seat] < config.rules.big_blind:
        return "short_big_blind"
    state = pokerkit_state(config)
    for seat in config.order:
        state.deal_hole(cards_text(hand.hole_cards(seat)))
    try:
        while (seat := hand.to_act) is not None:
            if fifth_bet_possible(hand):
                raise Departure("fixed_limit_fifth_bet")
            compare_turn(state, hand)
            action = random_action(hand.legal_actions(), rng)
            events = hand.act(seat, action)
            check_departures(hand, events)
            if action.kind is ActionKind.FOLD:
                state.fold()
            elif action in (CHECK, CALL):
                state.check_or_call()
            else:
                state.complete_bet_or_raise_to(action.amount)
            sync(state, hand)
    except Departure as departure:
        play_out(hand, rng)  # finish the hand in our engine alone
        assert sum(hand.result.end_stacks.values()) == sum(config.start_stacks.values())
        return str(departure)
    assert not state.status
    pots = hand.result.pots
    odd_chips = [pot.amount % len(pot.shares) for pot in pots if len(pot.shares) > 1]
    if any(odd_chips) and (max(odd_chips) >= 2 or len(pots) > 1):
        return "odd_chips"
    assert state.stacks == by_position(hand, hand.result.end_stacks)
    return "compared"


@pytest.mark.parametrize("structure", list(BettingStructure))
def test_p1_2_engine_agrees_with_pokerkit_on_random_hands_with_side_pots(structure: BettingStructure) -> None:
    """P-1.2 (differential): legal actions, raise bounds, pots and stacks at every step, final stacks."""
    rng = random.Random(f"differential-{structure}")
    outcomes: Counter[str] = Counter()
    for _ in range(HANDS_PER_STRUCTURE):
        outcomes[play_both(random_config(rng, structure), rng)] += 1
    # Most hands must really be compared, to the end, for the test to mean something.
    assert outcomes["compared"] >= HANDS_PER_STRUCTURE // 2, outcomes


def test_p1_2_pokerkit_fold_means_the_same_as_ours() -> None:
    """Sanity check of the harness itself: a fold in both engines leaves the same stacks."""
    rules = TableRules(BettingStructure.NO_LIMIT, 1, 2)
    config = HandConfig.from_button(rules, {1: SeatConfig("a", 100), 2: SeatConfig("b", 100)}, button=2)
    hand = Hand(config, shuffled_deck(random.Random(1)))
    state = pokerkit_state(config)
    for seat in config.order:
        state.deal_hole(cards_text(hand.hole_cards(seat)))
    hand.act(2, FOLD)
    state.fold()
    assert state.stacks == by_position(hand, hand.result.end_stacks) == [101, 99]
