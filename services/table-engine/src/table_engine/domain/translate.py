"""The engine's events as the platform's public events (platform_kit.events.table).

The engine's events carry no hidden card (P-1.4), and neither do these: hole cards leave only through
`HoleCardsDealt` (private, built from `Hand.hole_cards`), and shown cards only through the showdown and the
hand's result, once the engine has turned them face up.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Literal

from platform_kit.events import Event
from platform_kit.events import table as contract

from table_engine.domain import (
    ActionKind,
    ActionTaken,
    CardsMucked,
    ForcedBet,
    ForcedBetPosted,
    Hand,
    HandResult,
    StreetDealt,
    UncalledBetReturned,
    card_text,
    category,
    evaluate,
)
from table_engine.domain import Event as DomainEvent
from table_engine.domain.live import LiveHand

Automatic = Literal["timeout", "sitting_out", "disconnected"]

_FORCED = {
    ForcedBet.SMALL_BLIND: "post_small_blind",
    ForcedBet.BIG_BLIND: "post_big_blind",
    ForcedBet.ANTE: "post_ante",
    ForcedBet.BIG_BLIND_ANTE: "post_ante",
}
_STREETS: dict[int, Literal["flop", "turn", "river"]] = {1: "flop", 2: "turn", 3: "river"}


def cards(values: Iterable[int]) -> list[str]:
    return [card_text(card) for card in values]


def new_events(table_id: str, live: LiveHand, automatic: tuple[int, Automatic] | None = None) -> list[Event]:
    """The public events for the engine's events not yet published; marks them published.

    `automatic`: (seat, why) when the service acted for that seat, to flag its action. The showdown and the
    pots are not translated here: `completion_events` reports them once the hand is over.
    """
    hand_id = live.hand_id
    events: list[Event] = []
    for event in live.hand.events[live.published :]:
        if isinstance(event, ForcedBetPosted | ActionTaken):
            seat = event.seat
            added = event.amount if isinstance(event, ForcedBetPosted) else event.added
            live.stacks[seat] -= added
            live.pot += added
            if isinstance(event, ForcedBetPosted):
                action, raise_to, flag = _FORCED[event.kind], None, None
            else:
                action = event.kind.value
                raise_to = event.total_bet if event.kind in (ActionKind.BET, ActionKind.RAISE) else None
                flag = automatic[1] if automatic is not None and automatic[0] == seat else None
            events.append(
                contract.ActionTaken(
                    table_id=table_id,
                    hand_id=hand_id,
                    seat=seat,
                    player_id=live.player_of(seat),
                    action=action,
                    amount=added,
                    raise_to=raise_to,
                    all_in=event.all_in,
                    stack_after=live.stacks[seat] + live.set_aside.get(seat, 0),
                    pot_after=live.pot,
                    automatic=flag,
                )
            )
        elif isinstance(event, UncalledBetReturned):
            events.append(returned(table_id, live, event.seat, event.amount))
        elif isinstance(event, StreetDealt):
            events.append(street_dealt(table_id, hand_id, event))
    live.published = len(live.hand.events)
    return events


def street_dealt(table_id: str, hand_id: str, event: StreetDealt) -> contract.StreetDealt:
    return contract.StreetDealt(
        table_id=table_id, hand_id=hand_id, street=_STREETS[event.street], board=cards(event.board)
    )


def returned(table_id: str, live: LiveHand, seat: int, amount: int) -> contract.BetReturned:
    live.stacks[seat] += amount
    live.pot -= amount
    return contract.BetReturned(
        table_id=table_id,
        hand_id=live.hand_id,
        seat=seat,
        player_id=live.player_of(seat),
        amount=amount,
        stack_after=live.stacks[seat] + live.set_aside.get(seat, 0),
        pot_after=live.pot,
    )


def chips_paid(events: Iterable[DomainEvent]) -> dict[int, int]:
    """Seat -> chips put in the middle so far (forced bets and bets, less uncalled bets given back)."""
    paid: dict[int, int] = {}
    for event in events:
        if isinstance(event, ForcedBetPosted):
            paid[event.seat] = paid.get(event.seat, 0) + event.amount
        elif isinstance(event, ActionTaken):
            paid[event.seat] = paid.get(event.seat, 0) + event.added
        elif isinstance(event, UncalledBetReturned):
            paid[event.seat] = paid.get(event.seat, 0) - event.amount
    return paid


def shown_hands(hand: Hand, result: HandResult) -> list[contract.ShownHand]:
    board = list(result.board)
    return [
        contract.ShownHand(
            seat=seat,
            player_id=hand.config.seats[seat].player_id,
            cards=cards(hole),
            category=category(evaluate([*hole, *board])).name.lower() if len(board) >= 3 else "",
        )
        for seat, hole in result.shown.items()
    ]


def completion_events(
    table_id: str, tournament_id: str | None, live: LiveHand, button_seat: int
) -> tuple[list[Event], dict[int, int]]:
    """The showdown (when cards were shown or mucked) and the hand's outcome; also seat -> end stack.

    End stacks include chips set aside by all-in protection, so a protected player never counts as busted.
    """
    hand = live.hand
    result = hand.result
    end = {seat: result.end_stacks[seat] + live.set_aside.get(seat, 0) for seat in live.dealt_in}
    shown = shown_hands(hand, result)
    mucked = [event.seat for event in hand.events if isinstance(event, CardsMucked)]
    events: list[Event] = []
    if shown or mucked:
        events.append(
            contract.ShowdownRevealed(table_id=table_id, hand_id=live.hand_id, shown=shown, mucked_seats=mucked)
        )
    events.append(
        contract.HandCompleted(
            table_id=table_id,
            tournament_id=tournament_id,
            hand_id=live.hand_id,
            hand_no=live.hand_no,
            button_seat=button_seat,
            board=cards(result.board),
            results=[
                contract.SeatResult(
                    seat=seat, player_id=live.player_of(seat), start_stack=live.start_stacks[seat], end_stack=end[seat]
                )
                for seat in live.dealt_in
            ],
            pots=[
                contract.PotResult(
                    amount=pot.amount,
                    eligible_seats=list(pot.eligible),
                    winner_seats=list(pot.shares),
                    shares=list(pot.shares.values()),
                )
                for pot in result.pots
            ],
            shown=shown,
            # The engine ranks busts by P-2.2 then P-2.3 (best first); a protected player is never among them.
            busted_player_ids=[live.player_of(seat) for seat in result.busted if not end[seat]],
        )
    )
    return events, end
