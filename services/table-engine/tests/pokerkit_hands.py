"""Random hold'em hands played by pokerkit alone and written in PHH by pokerkit's own writer: an oracle for the
replay that owes nothing to this engine.

The tables are drawn as in ``test_differential_pokerkit`` (2 to 9 players, unequal and often short stacks so that
all-ins and side pots are common; no ante, antes or a big-blind ante), but here pokerkit picks among its own legal
actions. Where the platform's rules (P-1.2a) differ from pokerkit's, a hand is either never played that way or
left out and counted, so that pokerkit's finishing stacks are the right answer for every hand kept:

- an all-in bet or raise short of a full one (``fixed_limit_short_all_in`` and ``short_first_bet`` in the
  differential test) is never chosen: when the only raise pokerkit offers is all-in, the player calls or folds;
- a fifth fixed-limit bet never happens: pokerkit stops at four, the engine's cap is higher;
- ``short_big_blind``: the big blind is all-in for less than a full big blind;
- ``split_pot``: a pot shared by two or more winners (odd chips; and pokerkit merges pots whose contestants are
  the same, so even an even split can hide them: the differential test sorts those cases out with the engine in
  the loop);
- ``no_choice_check``: pokerkit asks a player whose every opponent is all-in to check, and writes that check;
  the engine asks nobody then, and its replay refuses the extra action.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from pokerkit import ChipsPushing, Deck, FixedLimitTexasHoldem, HandHistory, NoLimitTexasHoldem, Poker, State
from test_differential_pokerkit import AUTOMATIONS

VARIANTS = ("NT", "FT")
KEPT = "kept"


@dataclass(frozen=True)
class PokerkitHand:
    outcome: str  # KEPT, or why the hand is left out
    text: str  # the PHH text, as pokerkit wrote it
    finishing_stacks: list[int]
    side_pots: bool  # pokerkit paid more than one pot


def play_pokerkit_hand(rng: random.Random, variant: str) -> PokerkitHand:
    """One complete hand of ``variant`` ("NT" or "FT"), every random choice drawn from ``rng``."""
    players = rng.randint(2, 9)
    big_blind = rng.choice((2, 10, 100))
    game = _random_game(rng, variant, players, big_blind)
    stacks = [rng.choice((rng.randint(1, 8 * big_blind), rng.randint(1, 80 * big_blind))) for _ in range(players)]
    state = game(stacks, players)
    deck = list(Deck.STANDARD)
    rng.shuffle(deck)  # pokerkit would shuffle its own deck with the global random module
    reasons = ["short_big_blind"] if max(state.bets) < big_blind else []
    while state.status:
        if state.can_deal_hole():
            state.deal_hole([deck.pop(), deck.pop()])
        elif state.can_burn_card():
            state.burn_card("??")
        elif state.can_deal_board():
            assert state.street is not None
            state.deal_board([deck.pop() for _ in range(state.street.board_dealing_count)])
        else:
            _random_action(state, rng)
    pushes = [operation for operation in state.operations if isinstance(operation, ChipsPushing)]
    if any(sum(1 for amount in push.amounts if amount) > 1 for push in pushes):
        reasons.append("split_pot")
    return PokerkitHand(
        outcome=reasons[0] if reasons else KEPT,
        text=HandHistory.from_game_state(game, state).dumps(),
        finishing_stacks=list(state.stacks),
        side_pots=any(push.pot_index > 0 for push in pushes),
    )


def _random_game(rng: random.Random, variant: str, players: int, big_blind: int) -> Poker:
    ante_kind = rng.choice(("none", "ante", "big_blind_ante"))
    antes = [max(1, big_blind // 10) if ante_kind == "ante" else 0] * players
    if ante_kind == "big_blind_ante":
        # Entry 1 is the big blind's: player 2's, or heads-up (PHH applies forced bets reversed) player 1's.
        antes[1] = big_blind
    trimming = ante_kind != "big_blind_ante"
    blinds = (big_blind // 2, big_blind)
    if variant == "FT":
        return FixedLimitTexasHoldem(AUTOMATIONS, trimming, antes, blinds, big_blind, 2 * big_blind)
    return NoLimitTexasHoldem(AUTOMATIONS, trimming, antes, blinds, big_blind)


def _random_action(state: State, rng: random.Random) -> None:
    player = state.actor_index
    assert player is not None
    all_in = state.stacks[player] + state.bets[player]
    low = state.min_completion_betting_or_raising_to_amount
    high = state.max_completion_betting_or_raising_to_amount
    moves = ["check_or_call"] + (["fold"] if state.can_fold() else [])
    # pokerkit caps the minimum at the player's stack: low == high == all_in is an all-in of a full raise at most.
    if low is not None and high is not None and not low == high == all_in:
        moves.append("raise")
    move = rng.choice(moves)
    if move == "fold":
        state.fold()
    elif move == "check_or_call":
        state.check_or_call()
    else:
        assert low is not None and high is not None
        state.complete_bet_or_raise_to(rng.choice((low, high, rng.randint(low, high))))
