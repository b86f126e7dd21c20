"""A deal's evidence as a hand's history or audit record reveals it: the seed, the contributions, the
commitment, and the cards seen at their deck positions. What `table-engine verify-deal` checks
(`fair_deal.verify`, docs/fair-deal.md).

Two sources, both written by this engine once the hand has ended:
- a PHH history (anyone's copy): the fields ``_deck_seed``, ``_deck_contributions``, ``_deck_commitment`` and
  the cards its actions show (``????`` hole cards are skipped);
- the audit record (JSON, `GET /internal/v1/hands/{id}/audit`): ``seed``, ``contributions``, ``commitment``,
  the whole recorded ``deck`` and its history with every hole card.

Deck positions follow the engine's dealing (cards.py): of ``n`` players in dealing order, player ``i`` gets
positions ``i`` and ``i + n``; the board takes ``board_slots(n)``, after each street's burn.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, TypeGuard

from table_engine.domain.cards import board_slots, parse_card, parse_cards
from table_engine.phh.notation import PhhHand, loads, parse_action

_HIDDEN = "????"
HISTORY = "the history's cards"
RECORDED_DECK = "the recorded deck"


class DealRecordError(ValueError):
    """The file is not a history or audit this engine wrote with a provably fair deal."""


@dataclass(frozen=True)
class DealRecord:
    hand_id: str
    seed: str
    contributions: tuple[str, ...]
    commitment: str
    dealt: dict[str, dict[int, int]]
    """Source ("the recorded deck", "the history") -> deck position -> the card it says was there."""


def dealt_in_history(history: PhhHand) -> dict[int, int]:
    """Deck position -> card, for every card the history shows (hole cards and board)."""
    players = history.player_count
    dealt: dict[int, int] = {}
    board: list[int] = []
    for text in history.actions:
        action = parse_action(text)
        if action is None or action.actor is not None or action.argument is None:
            continue
        if action.verb == "dh" and action.dealee is not None and action.argument != _HIDDEN:
            first, second = parse_cards(action.argument)
            dealt[action.dealee], dealt[action.dealee + players] = first, second
        elif action.verb == "db":
            board.extend(parse_cards(action.argument))
    if len(board) > 5:
        raise DealRecordError(f"a board has at most 5 cards, the history deals {len(board)}")
    dealt.update(zip(board_slots(players), board, strict=False))
    return dealt


def from_history(history: PhhHand) -> DealRecord:
    fields = history.fields
    seed, contributions, commitment = (
        fields.get("_deck_seed"),
        fields.get("_deck_contributions"),
        fields.get("_deck_commitment"),
    )
    if not isinstance(seed, str) or not isinstance(commitment, str) or not _strings(contributions):
        raise DealRecordError("the history reveals no deck seed (a hand dealt before provably fair deals?)")
    return DealRecord(
        hand_id=str(fields.get("_hand_id", "?")),
        seed=seed,
        contributions=tuple(contributions),
        commitment=commitment,
        dealt={HISTORY: dealt_in_history(history)},
    )


def from_audit(audit: Mapping[str, Any]) -> DealRecord:
    seed, contributions, commitment, deck = (
        audit.get("seed"),
        audit.get("contributions"),
        audit.get("commitment"),
        audit.get("deck"),
    )
    if not isinstance(seed, str) or not isinstance(commitment, str) or not _strings(contributions):
        raise DealRecordError("the audit record has no deck seed (a hand dealt before provably fair deals?)")
    if not _strings(deck) or not isinstance(audit.get("phh"), str):
        raise DealRecordError("an audit record has the recorded deck and the history (phh)")
    return DealRecord(
        hand_id=str(audit.get("hand_id", "?")),
        seed=seed,
        contributions=tuple(contributions),
        commitment=commitment,
        dealt={
            RECORDED_DECK: dict(enumerate(parse_card(card) for card in deck)),
            HISTORY: dealt_in_history(loads(audit["phh"])),
        },
    )


def load(text: str) -> DealRecord:
    """A record from a file's text: JSON (an audit record) or else PHH."""
    try:
        return _parse(text)
    except DealRecordError:
        raise
    except ValueError as error:  # PhhError, a card that is not one
        raise DealRecordError(str(error)) from None


def _parse(text: str) -> DealRecord:
    try:
        data = json.loads(text)
    except json.JSONDecodeError:
        return from_history(loads(text))
    if not isinstance(data, dict):
        raise DealRecordError("a JSON record is an object (the hand's audit record)")
    return from_audit(data)


def _strings(value: object) -> TypeGuard[list[str] | tuple[str, ...]]:
    return isinstance(value, list | tuple) and all(isinstance(item, str) for item in value)
