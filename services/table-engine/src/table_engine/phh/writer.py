"""Hand histories of the hands the platform plays, in PHH, one copy per audience (P-1.4).

- ``history(hand, viewer)``: what seat ``viewer`` may see: their own hole cards and the cards shown at the
  table. Everyone else's hole cards are written ``????``; mucked and folded hands stay hidden.
- ``history(hand, None)``: the public copy, only what was shown at the table.
- ``audit_history(hand)``: every hole card, for the operator and the regulator (P-1.3); never for players.

Players are written in dealing order (clockwise from the button's left) as PHH requires, with their seat
numbers in ``seats`` and their ids in ``players``. A history can be written mid-hand; ``finishing_stacks``
appears once the hand is complete.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping

from table_engine.domain.actions import ActionKind
from table_engine.domain.cards import cards_text
from table_engine.domain.events import ActionTaken, CardsMucked, CardsShown, HoleCardsDealt, StreetDealt
from table_engine.domain.hand import Hand
from table_engine.domain.rules import BettingStructure
from table_engine.phh.notation import REQUIRED_FIELDS, PhhError, PhhHand, dumps

_VARIANTS = {
    BettingStructure.NO_LIMIT: "NT",
    BettingStructure.POT_LIMIT: "PT",
    BettingStructure.FIXED_LIMIT: "FT",
}
_HIDDEN = "????"


def history(hand: Hand, viewer: int | None, *, fields: Mapping[str, object] | None = None) -> PhhHand:
    """The hand as seat ``viewer`` may see it, or the public copy when ``viewer`` is None.

    ``fields``: extra optional or user-defined PHH fields (``hand``, ``event``, ``time``, ``currency``...).
    """
    shown = hand.shown_cards()
    return _history(hand, lambda seat: seat == viewer or seat in shown, fields)


def audit_history(hand: Hand, *, fields: Mapping[str, object] | None = None) -> PhhHand:
    """The hand with every hole card: for the operator's audit and replay only (P-1.3), never for players."""
    return _history(hand, lambda seat: True, fields)


def write(hand: Hand, viewer: int | None, *, fields: Mapping[str, object] | None = None) -> str:
    """``history`` as PHH text."""
    return dumps(history(hand, viewer, fields=fields))


def _history(hand: Hand, visible: Callable[[int], bool], fields: Mapping[str, object] | None) -> PhhHand:
    config = hand.config
    rules = config.rules
    order = config.order
    player = {seat: f"p{index}" for index, seat in enumerate(order, 1)}
    antes = [0] * len(order)
    blinds = [0] * len(order)
    if rules.big_blind_ante:
        antes[order.index(config.positions.big_blind)] = rules.ante
    elif rules.ante:
        antes = [rules.ante] * len(order)
    if config.positions.small_blind in config.seats:
        blinds[order.index(config.positions.small_blind)] = rules.small_blind
    blinds[order.index(config.positions.big_blind)] = rules.big_blind
    if len(order) == 2:  # heads-up, PHH applies the forced-bet arrays reversed
        antes.reverse()
        blinds.reverse()
    actions: list[str] = []
    for event in hand.events:
        if isinstance(event, HoleCardsDealt):
            for seat in event.seats:
                cards = cards_text(hand.hole_cards(seat)) if visible(seat) else _HIDDEN
                actions.append(f"d dh {player[seat]} {cards}")
        elif isinstance(event, ActionTaken):
            actions.append(f"{player[event.seat]} {_betting_notation(event)}")
        elif isinstance(event, StreetDealt):
            actions.append(f"d db {cards_text(event.cards)}")
        elif isinstance(event, CardsShown):
            actions.append(f"{player[event.seat]} sm {cards_text(event.cards)}")
        elif isinstance(event, CardsMucked):
            actions.append(f"{player[event.seat]} sm")
    extra: dict[str, object] = {
        "seats": list(order),
        "players": [config.seats[seat].player_id for seat in order],
    }
    if hand.is_complete:
        end = hand.result.end_stacks
        extra["finishing_stacks"] = [end[seat] for seat in order]
    for name, value in (fields or {}).items():
        if name in REQUIRED_FIELDS:
            raise PhhError(f"{name} is written from the hand itself")
        extra[name] = value
    fixed = rules.is_fixed_limit
    return PhhHand(
        variant=_VARIANTS[rules.structure],
        antes=tuple(antes),
        blinds_or_straddles=tuple(blinds),
        starting_stacks=tuple(config.seats[seat].stack for seat in order),
        actions=tuple(actions),
        min_bet=None if fixed else rules.big_blind,
        small_bet=rules.limit_small_bet if fixed else None,
        big_bet=rules.limit_big_bet if fixed else None,
        ante_trimming_status=not rules.big_blind_ante,
        fields=extra,
    )


def _betting_notation(event: ActionTaken) -> str:
    if event.kind is ActionKind.FOLD:
        return "f"
    if event.kind is ActionKind.CHECK or event.kind is ActionKind.CALL:
        return "cc"
    return f"cbr {event.total_bet}"
