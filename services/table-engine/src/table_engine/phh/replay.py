"""Replay a PHH hand through this engine (not pokerkit) and return the finishing stacks.

The PHH players become seats 1..n in PHH order, the last one on the button (heads-up the button is player 2,
the small blind). The deck is rebuilt so that the engine deals exactly the recorded cards: player ``i`` of
``n`` gets deck positions ``i`` and ``i + n``, the board goes after the burns. Cards the file does not know
("????") are filled with unused cards; they only matter if such a hand had to be evaluated, which the replay
refuses. Every player action must be the one the engine expects, in its order: a replay is a check of the
engine against the recorded hand.

Only what the engine plays is accepted: blinds (or a dead small blind), a uniform ante or a big-blind ante,
``min_bet`` equal to the big blind, integer chip amounts.
"""

from __future__ import annotations

from collections.abc import Sequence

from table_engine.domain.actions import CALL, CHECK, FOLD, MUCK, SHOW, Action
from table_engine.domain.cards import arrange_deck, parse_cards
from table_engine.domain.errors import ActionRejected, InvalidConfiguration
from table_engine.domain.events import Street
from table_engine.domain.hand import Hand
from table_engine.domain.rules import BettingStructure, HandConfig, SeatConfig, TableRules
from table_engine.domain.seating import Positions
from table_engine.phh.notation import Number, PhhAction, PhhError, PhhHand, parse_action

_STRUCTURES = {
    "NT": BettingStructure.NO_LIMIT,
    "PT": BettingStructure.POT_LIMIT,
    "FT": BettingStructure.FIXED_LIMIT,
}
UNKNOWN = "??"


class ReplayError(Exception):
    """The hand cannot be replayed through the engine, or the engine disagrees with it (message says why)."""


def replay(phh: PhhHand) -> list[int]:
    """Play ``phh`` through the engine; the finishing stacks in PHH player order."""
    hand = replay_hand(phh)
    stacks = hand.stacks
    return [stacks[seat] for seat in range(1, phh.player_count + 1)]


def replay_hand(phh: PhhHand) -> Hand:
    """Play ``phh`` through the engine and return the completed ``Hand``."""
    try:
        numbered = [(n, text, action) for n, text in enumerate(phh.actions, 1) if (action := parse_action(text))]
        actions = [action for _, _, action in numbered]
        known = _known_hole_cards(actions, phh.player_count)
        hand = Hand(hand_config(phh), _deck(known, actions))
    except (PhhError, InvalidConfiguration, ValueError) as error:
        raise ReplayError(str(error)) from None
    for number, text, action in numbered:
        try:
            _apply(hand, action)
        except (ActionRejected, ReplayError) as error:
            raise ReplayError(f"action {number} ({text!r}): {error}") from None
    while hand.to_act is not None and hand.street is Street.SHOWDOWN:
        seat = hand.to_act
        if UNKNOWN in known[seat - 1]:
            raise ReplayError(f"the file stops at showdown but player {seat}'s cards are unknown")
        hand.act(seat, SHOW)  # the file says nothing more: the hand is shown, as it must be to win
    if not hand.is_complete:
        raise ReplayError(f"the actions stop before the end of the hand (player {hand.to_act} to act)")
    return hand


def hand_config(phh: PhhHand) -> HandConfig:
    """The engine configuration of a PHH hand (seats 1..n, manual showdown)."""
    count = phh.player_count
    structure = _STRUCTURES.get(phh.variant)
    if structure is None:
        raise ReplayError(f"variant {phh.variant!r} is not Texas hold'em")
    stacks = [_chips(value, "starting stack") for value in phh.starting_stacks]
    antes = [_chips(value, "ante") for value in phh.antes]
    blinds = [_chips(value, "blind") for value in phh.blinds_or_straddles]
    if count == 2:  # heads-up, PHH applies the antes reversed: player 1 is the big blind
        antes.reverse()
    small_blind, big_blind, big_blind_index = _blinds(blinds)
    ante, big_blind_ante = _antes(antes, big_blind_index)
    small_bet = big_bet = None
    if structure is BettingStructure.FIXED_LIMIT:
        small_bet, big_bet = _chips(phh.small_bet, "small bet"), _chips(phh.big_bet, "big bet")
    elif phh.min_bet is None or _chips(phh.min_bet, "min bet") != big_blind:
        raise ReplayError("a minimum bet different from the big blind is not supported")
    # A dead small blind is posted by nobody: its amount does not matter, the rules only need a valid one.
    rules = TableRules(structure, small_blind or big_blind, big_blind, ante, big_blind_ante, small_bet, big_bet)
    seats = {number: SeatConfig(f"p{number}", stack) for number, stack in enumerate(stacks, 1)}
    if count == 2:
        positions = Positions(button=2, small_blind=2, big_blind=1)
    else:  # the small blind is seat 1, or (dead small blind) the empty seat between the button and seat 1
        positions = Positions(button=count, small_blind=1 if small_blind else count + 1, big_blind=big_blind_index + 1)
    return HandConfig(rules, seats, positions, manual_showdown=True)


def _chips(value: Number | None, name: str) -> int:
    if value is None or value != int(value) or value < 0:
        raise ReplayError(f"{name} {value!r} is not a whole number of chips")
    return int(value)


def _amount(text: str) -> int:
    try:
        value = float(text)
    except ValueError:
        raise ReplayError(f"not an amount: {text!r}") from None
    return _chips(value, "bet")


def _blinds(blinds: Sequence[int]) -> tuple[int, int, int]:
    """(small blind or 0 when dead, big blind, big blind's player index) from PHH ``blinds_or_straddles``."""
    posted = [(index, amount) for index, amount in enumerate(blinds) if amount]
    if len(posted) == 2 and [index for index, _ in posted] == [0, 1] and posted[0][1] <= posted[1][1]:
        # Heads-up the array is applied reversed: player 1 posts the big blind, player 2 (button) the small.
        return posted[0][1], posted[1][1], 0 if len(blinds) == 2 else 1
    if len(posted) == 1 and posted[0][0] == 0 and len(blinds) > 2:
        return 0, posted[0][1], 0
    raise ReplayError(f"blinds {list(blinds)} are not a small and a big blind (straddles are not supported)")


def _antes(antes: Sequence[int], big_blind_index: int) -> tuple[int, bool]:
    """(ante, whether it is a big-blind ante)."""
    if len(set(antes)) == 1:
        return antes[0], False
    if all(not amount for index, amount in enumerate(antes) if index != big_blind_index):
        return antes[big_blind_index], True
    raise ReplayError(f"antes {list(antes)} are neither uniform nor a big-blind ante")


def _known_hole_cards(actions: Sequence[PhhAction], count: int) -> list[str]:
    """Each player's hole cards as text ("????" when unknown), completed by cards shown at showdown."""
    known = [UNKNOWN * 2] * count
    for action in actions:
        player = action.dealee if action.verb == "dh" else action.actor
        if player is not None and player >= count:
            raise PhhError(f"an action names player {player + 1} of {count}")
        if player is None or not action.argument or action.argument == "-" or action.verb not in ("dh", "sm"):
            continue
        if len(action.argument) != 4:
            raise PhhError(f"player {player + 1} must have two hole cards, not {action.argument!r}")
        if action.verb == "dh" or UNKNOWN in known[player]:
            known[player] = action.argument
    return known


def _deck(known: Sequence[str], actions: Sequence[PhhAction]) -> list[int]:
    """A deck from which the engine deals the recorded hole cards and board; unknown cards are spares."""
    holes = [None if UNKNOWN in cards else parse_cards(cards) for cards in known]
    board = [
        card for action in actions if action.verb == "db" and action.argument for card in parse_cards(action.argument)
    ]
    return arrange_deck(holes, board)


def _has_no_one_to_bet_against(hand: Hand, seat: int) -> bool:
    stacks = hand.stacks
    live = [s for s in stacks if s not in hand.folded]
    return seat in live and stacks[seat] > 0 and all(stacks[s] == 0 for s in live if s != seat)


def _apply(hand: Hand, action: PhhAction) -> None:
    if action.actor is None:
        if action.verb not in ("dh", "db"):
            raise ReplayError(f"unknown dealer action {action.verb!r}")
        return  # the deck was arranged so that the engine deals exactly these cards
    seat = action.actor + 1
    if action.verb == "sm":
        if hand.street is Street.SHOWDOWN and hand.to_act == seat:
            hand.act(seat, SHOW if action.argument else MUCK)
        # else the engine already turned the hand face up (an all-in), as the rules require
        return
    if action.verb == "cc" and hand.to_act != seat and (hand.is_complete or _has_no_one_to_bet_against(hand, seat)):
        # Some writers (pokerkit among them) record a check from the last player with chips when every opponent
        # is all-in; the engine asks nobody then and runs the board out (perhaps to the end of the hand), so the
        # check changes nothing.
        return
    if action.verb == "f":
        move = FOLD
    elif action.verb == "cc":
        move = CHECK if hand.legal_actions().check else CALL
    elif action.verb == "cbr" and action.argument:
        move = Action.raise_to(_amount(action.argument))
    else:
        raise ReplayError(f"action {action.verb!r} does not exist in Texas hold'em")
    hand.act(seat, move)
