"""Read-only views for the REST API: a table's public state, its hands, and hand histories (PHH) per audience.

Histories are written by replaying the stored hand (records.replay) through the PHH writer, which shows a
viewer their own hole cards and the cards shown at the table, and nothing else (P-1.4); with the hand's
revealed seed, contributions and commitment, from which anyone verifies the deal (docs/fair-deal.md). The deck and every
hole card are only in the audit view, behind the internal token (P-1.3), and only once the hand has ended:
while it is played, its cards are its players' alone, staff included (P-1.4).
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from platform_kit.errors import Conflict, NotFound
from platform_kit.events.table import Level, SeatedPlayer
from pydantic import BaseModel, Field
from sqlalchemy.ext.asyncio import AsyncSession

from table_engine.adapters import store
from table_engine.adapters.store import HandRecord
from table_engine.domain import cards_text
from table_engine.domain.fair_deal import commitment
from table_engine.domain.model import nobody_acting
from table_engine.domain.records import replay
from table_engine.phh.notation import dumps
from table_engine.phh.writer import audit_history, write


class SeatView(BaseModel):
    seat: int
    player_id: str
    stack: int = Field(description="Chips behind: during a hand, not counting the chips bet on this street.")
    bet: int = Field(description="Chips bet on the current street.")
    in_hand: bool = Field(description="Dealt in the hand in progress and not folded.")
    sitting_out: bool
    connected: bool


class HandView(BaseModel):
    hand_id: str
    hand_no: int
    street: str
    board: list[str]
    pot: int = Field(description="Every chip in the middle, the current street's bets included.")
    button_seat: int
    small_blind_seat: int
    big_blind_seat: int
    to_act: int | None
    deadline: str | None = Field(description="When the time bank of the player to act starts to run.")
    expires_at: str | None = Field(description="When the default action applies (check if free, else fold).")
    all_in_protected: list[int] = Field(description="Seats in disconnection all-in protection (P-13.2).")
    deck_commitment: str | None = Field(
        None,
        description="SHA-256 (hex) of the hand's secret seed, as in `table.hand.started`: the seed is revealed in "
        "the hand's history once it has ended (docs/fair-deal.md).",
    )


class TableView(BaseModel):
    table_id: str
    tournament_id: str | None
    status: str
    max_seats: int
    betting_structure: str
    level: Level | None
    button_seat: int | None = Field(description="The button of the hand in progress, else of the last hand.")
    hand: HandView | None
    next_hand_at: datetime | None = Field(
        None,
        description="Between hands: when the hand the director asked for is dealt (the pause after the last "
        "hand, while a client shows its showdown); None when no hand is waiting.",
    )
    nobody_acting: bool = Field(
        False,
        description="Every seated player sits out: the table deals on by itself at its pace, blinds and antes "
        "posted and hands folded or checked, until the rising blinds bust someone.",
    )
    next_deck_commitment: str | None = Field(
        None,
        description="SHA-256 (hex) of the secret seed of the table's next hand, committed to before any player's "
        "contribution to it is accepted (`POST /v1/tables/{table_id}/contributions` at the gateway); the seed is "
        "revealed in that hand's history once it has ended (docs/fair-deal.md).",
    )
    seats: list[SeatView]


class HandSummary(BaseModel):
    hand_id: str
    table_id: str
    hand_no: int
    status: str = Field(description="in_progress, completed or voided (P-10).")
    level: Level
    button_seat: int
    players: list[SeatedPlayer] = Field(description="Every player dealt in, with the stack at the start.")
    end_stacks: dict[int, int] | None = Field(description="Seat -> chips at the end (restored ones when voided).")
    started_at: datetime
    ended_at: datetime | None


class HandList(BaseModel):
    hands: list[HandSummary]
    next_before: int | None = Field(description="Pass as `before` for the next (older) page; None at the end.")


#: How many of a tournament's hands one request looks through for a player's: a page of a player's hands may
#: hold fewer than `limit` (even none) with `next_before` set, and the reader's cost stays bounded.
PLAYER_SCAN = 500


class HandOwner(BaseModel):
    """Where a hand belongs, without a card: for deciding who may audit it before anything else."""

    hand_id: str
    table_id: str
    tournament_id: str | None
    status: str = Field(description="in_progress, completed or voided (P-10).")


class HandAudit(BaseModel):
    hand_id: str
    table_id: str
    deck: list[str] = Field(description="The shuffled deck in dealing order (P-1.3).")
    phh: str = Field(description="The history with every hole card.")
    commitment: str | None = Field(
        None, description="SHA-256 (hex) of the seed, published before the first card (docs/fair-deal.md)."
    )
    seed: str | None = Field(None, description="The hand's server seed (hex), revealed now that the hand has ended.")
    contributions: list[str] | None = Field(None, description="The other inputs the deck was derived from.")


async def table_view(session: AsyncSession, table_id: str) -> TableView:
    found = await store.public_table(session, table_id)
    if found is None:
        raise NotFound("table_not_found", f"There is no table {table_id}.")
    row, seat_rows = found
    state: dict[str, Any] | None = row["public_state"]
    hand = _hand_view(state) if state else None
    positions = state["positions"] if state else row["positions"]
    bets = {int(seat): bet for seat, bet in (state or {}).get("bets", {}).items()}
    playing = set(state["dealt_in"]) - set(state["folded"]) if state else set()
    return TableView(
        table_id=row["table_id"],
        tournament_id=row["tournament_id"],
        status=row["status"],
        max_seats=row["max_seats"],
        betting_structure=row["betting_structure"],
        level=Level.model_validate(row["level"]) if row["level"] else None,
        button_seat=positions["button"] if positions else None,
        hand=hand,
        next_hand_at=store.next_hand_from_json(row["next_hand"]).due_at if row["next_hand"] else None,
        nobody_acting=nobody_acting(row["status"], (seat["sitting_out"] for seat in seat_rows)),
        next_deck_commitment=commitment(bytes.fromhex(row["next_seed"])) if row["next_seed"] else None,
        seats=[
            SeatView(
                seat=seat["seat"],
                player_id=seat["player_id"],
                stack=seat["stack"],
                bet=bets.get(seat["seat"], 0),
                in_hand=seat["seat"] in playing,
                sitting_out=seat["sitting_out"],
                connected=seat["connected"],
            )
            for seat in seat_rows
        ],
    )


def _hand_view(state: dict[str, Any]) -> HandView:
    positions = state["positions"]
    return HandView(
        hand_id=state["hand_id"],
        hand_no=state["hand_no"],
        street=state["street"],
        board=state["board"],
        pot=state["pot"],
        button_seat=positions["button"],
        small_blind_seat=positions["small_blind"],
        big_blind_seat=positions["big_blind"],
        to_act=state["to_act"],
        deadline=state["deadline"],
        expires_at=state["expires_at"],
        all_in_protected=state["all_in_protected"],
        deck_commitment=state.get("deck_commitment"),
    )


async def hand_list(session: AsyncSession, table_id: str, *, limit: int, before: int | None) -> HandList:
    if not await store.table_exists(session, table_id):
        raise NotFound("table_not_found", f"There is no table {table_id}.")
    records = await store.list_hands(session, table_id, limit=limit, before=before)
    return HandList(
        hands=[_summary(record) for record in records],
        next_before=records[-1].seq if len(records) == limit else None,
    )


async def tournament_hands(
    session: AsyncSession, tournament_id: str, *, limit: int, before: int | None, player_id: str | None
) -> HandList:
    """The hands of a tournament's tables, newest first; with `player_id`, only those the player was dealt in
    (found among the next PLAYER_SCAN hands at most). An unknown tournament has no hands: an empty list."""
    window = limit if player_id is None else max(limit, PLAYER_SCAN)
    records = await store.list_tournament_hands(session, tournament_id, limit=window, before=before)
    kept = [r for r in records if player_id is None or r.seat_of(player_id) is not None][:limit]
    if len(kept) == limit:
        next_before: int | None = kept[-1].seq
    else:
        next_before = records[-1].seq if len(records) == window else None
    return HandList(hands=[_summary(record) for record in kept], next_before=next_before)


def _summary(record: HandRecord) -> HandSummary:
    config = record.config
    return HandSummary(
        hand_id=record.hand_id,
        table_id=record.table_id,
        hand_no=record.hand_no,
        status=record.status,
        level=record.level,
        button_seat=config.positions.button,
        players=[
            SeatedPlayer(seat=seat, player_id=config.seats[seat].player_id, stack=record.start_stacks[seat])
            for seat in config.order
        ],
        end_stacks=record.end_stacks,
        started_at=record.started_at,
        ended_at=record.ended_at,
    )


async def history(session: AsyncSession, hand_id: str, player_id: str | None) -> str:
    """The hand's PHH as `player_id` may see it; everyone's copy when None."""
    record = await _finished_hand(session, hand_id)
    viewer = None
    if player_id is not None:
        viewer = record.seat_of(player_id)
        if viewer is None:
            raise NotFound("player_not_in_hand", f"{player_id} was not dealt in hand {hand_id}.")
    return write(replay(record.config, record.deck, record.actions), viewer, fields=_phh_fields(record))


async def owner(session: AsyncSession, hand_id: str) -> HandOwner:
    record = await _hand(session, hand_id)
    return HandOwner(
        hand_id=record.hand_id, table_id=record.table_id, tournament_id=record.tournament_id, status=record.status
    )


async def audit(session: AsyncSession, hand_id: str) -> HandAudit:
    """Refused (409 `hand_in_progress`) while the hand is played, like its history: P-1.4 before P-1.3."""
    record = await _finished_hand(session, hand_id)
    hand = replay(record.config, record.deck, record.actions)
    source = record.source
    return HandAudit(
        hand_id=record.hand_id,
        table_id=record.table_id,
        deck=[cards_text([card]) for card in record.deck],
        phh=dumps(audit_history(hand, fields=_phh_fields(record))),
        commitment=source.commitment if source else None,
        seed=source.seed.hex() if source else None,
        contributions=list(source.contributions) if source else None,
    )


async def _hand(session: AsyncSession, hand_id: str) -> HandRecord:
    record = await store.load_hand(session, hand_id)
    if record is None:
        raise NotFound("hand_not_found", f"There is no hand {hand_id}.")
    return record


async def _finished_hand(session: AsyncSession, hand_id: str) -> HandRecord:
    record = await _hand(session, hand_id)
    if record.status == "in_progress":
        raise Conflict(
            "hand_in_progress", f"Hand {hand_id} is still being played; its history and audit come once it has ended."
        )
    return record


def _phh_fields(record: HandRecord) -> dict[str, object]:
    """PHH optional fields, and ours (an underscore, as PHH asks of user-defined fields). Only for a hand that
    has ended: they reveal its seed (docs/fair-deal.md)."""
    assert record.status != "in_progress", "a hand's seed is revealed only once it has ended"
    fields: dict[str, object] = {"hand": record.hand_no, "_table_id": record.table_id, "_hand_id": record.hand_id}
    if record.source is not None:
        fields["_deck_commitment"] = record.source.commitment
        fields["_deck_seed"] = record.source.seed.hex()
        fields["_deck_contributions"] = list(record.source.contributions)
    if record.tournament_id:
        fields["event"] = record.tournament_id
    if record.status == "voided":
        fields["_voided"] = True  # P-10: interrupted, every stack restored to its start-of-hand value
    if record.set_aside:
        # All-in protection (P-13.2): the player played for the chips already in; these stayed theirs.
        fields["_set_aside"] = [record.set_aside.get(seat, 0) for seat in record.config.order]
    return fields
