"""Disconnection protection (P-13.2, P-13.3): what the table does for a player whose connection dropped.

The table's announced policy decides the kind of protection, the player's history (protections already used
in this tournament) whether they still get one:

- ``fold``: no protection. At each decision the player's hand is folded, or checked when checking is free
  (P-13.2 Interpretation).
- ``time_bank``: the player gets ``extra_seconds`` more on every decision of the current hand; when that runs
  out too, the default action applies (check if free, else fold) and they sit out.
- ``all_in_protection``: the player stays in for the pot so far without acting. Modelled in every betting
  structure as the engine's own all-in: the hand is replayed with the player's stack cut to the chips they have
  already put in, so that they are all-in for exactly that. They are skipped from then on, stay eligible for
  every pot formed up to their level, and later bets go to side pots they do not contest (the engine's side-pot
  rules, P-1.2). The chips they had behind are set aside and come back to them when the hand ends, so they
  never bust in a protected hand. A player who has put nothing in yet has no pot to stay in: they are folded
  at their turn like a player without protection, and keep their protection unused.

Beyond ``max_protections_per_tournament`` a player is folded as with ``fold``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

from platform_kit.events.table import DisconnectPolicy

from table_engine.domain import CALL, CHECK, ActionKind, ActionRejected, Hand, HandConfig, SeatConfig
from table_engine.domain.records import RecordedAction

Protection = Literal["fold", "time_bank", "all_in_protection"]


def protection_for(policy: DisconnectPolicy, used: int) -> Protection:
    """The protection a player who has used `used` protections gets under the table's policy (P-13.3)."""
    if policy.mode == "fold" or used >= policy.max_protections_per_tournament:
        return "fold"
    return policy.mode


def default_action(hand: Hand) -> RecordedAction:
    """What a player who does not decide does: check when it is free, else fold (P-13.2)."""
    seat = hand.to_act
    assert seat is not None, "nobody is to act"
    return RecordedAction(seat, ActionKind.CHECK if hand.legal_actions().check else ActionKind.FOLD)


@dataclass(frozen=True)
class AllInProtected:
    hand: Hand
    actions: list[RecordedAction]
    set_aside: int


def protect_all_in(hand: Hand, actions: Sequence[RecordedAction], seat: int) -> AllInProtected | None:
    """`hand` replayed with `seat` all-in for what it has put in so far, or None when that protects nothing
    (the seat is already all-in, or has put nothing in).

    Replaying keeps every recorded action except two kinds, both only possible after the protected player's
    last chip went in: that player's own free checks (they no longer act), and a bet or raise that nobody could
    answer any more (it becomes the check or call it amounts to; the engine would have returned the uncalled
    chips anyway).
    """
    behind = hand.stacks[seat]
    config = hand.config
    put_in = config.seats[seat].stack - behind
    if not behind or not put_in:
        return None
    seats = dict(config.seats)
    seats[seat] = SeatConfig(seats[seat].player_id, put_in)
    protected = Hand(
        HandConfig(config.rules, seats, config.positions, manual_showdown=config.manual_showdown), hand.deck
    )
    kept: list[RecordedAction] = []
    for recorded in actions:
        if protected.is_complete:
            break
        if protected.to_act != recorded.seat:
            continue
        try:
            protected.act(recorded.seat, recorded.action)
        except ActionRejected:
            passive = CHECK if protected.legal_actions().check else CALL
            protected.act(recorded.seat, passive)
            recorded = RecordedAction(recorded.seat, passive.kind)
        kept.append(recorded)
    return AllInProtected(protected, kept, behind)
