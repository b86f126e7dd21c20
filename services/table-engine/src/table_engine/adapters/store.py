"""Reading and writing tables, seats, hand records, protections and chat bans (SQLAlchemy Core)."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace
from datetime import datetime
from typing import Any

from platform_kit.events.table import DisconnectPolicy, Level
from sqlalchemy import bindparam, case, delete, func, insert, or_, select, update
from sqlalchemy.ext.asyncio import AsyncSession

from table_engine.adapters.orm import chat_bans, hands, protections, seats, tables
from table_engine.domain import BettingStructure, HandConfig
from table_engine.domain.fair_deal import DeckSource
from table_engine.domain.model import NextHand, Seat, Table
from table_engine.domain.records import (
    RecordedAction,
    config_from_json,
    config_to_json,
    deck_from_text,
    deck_to_text,
    positions_from_json,
    positions_to_json,
    seat_map_from_json,
    seat_map_to_json,
)


@dataclass(frozen=True)
class HandRecord:
    """A stored hand: enough to replay it exactly (`records.replay`)."""

    seq: int
    hand_id: str
    table_id: str
    tournament_id: str | None
    hand_no: int
    status: str
    level: Level
    config: HandConfig
    start_stacks: dict[int, int]
    set_aside: dict[int, int]
    actions: list[RecordedAction]
    deck: tuple[int, ...]
    source: DeckSource | None
    """What the deck derives from (fair_deal.py); None for hands dealt before provably fair deals."""
    end_stacks: dict[int, int] | None
    started_at: datetime
    ended_at: datetime | None

    @property
    def players(self) -> dict[int, str]:
        return {seat: s.player_id for seat, s in self.config.seats.items()}

    def seat_of(self, player_id: str) -> int | None:
        return next((seat for seat, player in self.players.items() if player == player_id), None)


# ---------------------------------------------------------------------------------------------------- tables

# The statements every action runs, built once with their values as parameters: building one per call (and its
# cache key, which walks every value) cost more CPU than sending it (py-spy on bench_table_actions, issue 14).
# An UPDATE without `.values()` sets the columns its parameters name; `key_*` parameters select the row.
_SELECT_TABLE = select(tables).where(tables.c.table_id == bindparam("table_id"))
_SELECT_SEATS = select(seats).where(seats.c.table_id == bindparam("table_id"))
_UPDATE_TABLE = update(tables).where(tables.c.table_id == bindparam("key_table_id"))
_UPDATE_SEAT = update(seats).where(seats.c.table_id == bindparam("key_table_id"), seats.c.seat == bindparam("key_seat"))
_UPDATE_HAND = update(hands).where(hands.c.hand_id == bindparam("key_hand_id"))


async def insert_table(session: AsyncSession, table: Table, now: datetime) -> None:
    await session.execute(insert(tables).values(**_table_values(table, None, now), opened_at=table.opened_at))
    await _insert_seats(session, table.table_id, table.seats.values())


async def table_exists(session: AsyncSession, table_id: str) -> bool:
    return (await session.scalar(select(tables.c.table_id).where(tables.c.table_id == table_id))) is not None


async def load_table(session: AsyncSession, table_id: str) -> Table | None:
    row = (await session.execute(_SELECT_TABLE, {"table_id": table_id})).mappings().first()
    if row is None:
        return None
    seat_rows = (await session.execute(_SELECT_SEATS, {"table_id": table_id})).mappings().all()
    return Table(
        table_id=row["table_id"],
        tournament_id=row["tournament_id"],
        shard=row["shard"],
        max_seats=row["max_seats"],
        structure=BettingStructure(row["betting_structure"]),
        action_seconds=row["action_seconds"],
        time_bank_seconds=row["time_bank_seconds"],
        policy=DisconnectPolicy.model_validate(row["disconnect_policy"]),
        status=row["status"],
        first_button=row["first_button"],
        positions=positions_from_json(row["positions"]) if row["positions"] else None,
        level=Level.model_validate(row["level"]) if row["level"] else None,
        hand_no=row["hand_no"],
        current_hand_id=row["current_hand_id"],
        opened_at=row["opened_at"],
        seats={r["seat"]: _seat(r) for r in seat_rows},
        hand_ended_at=row["hand_ended_at"],
        next_hand=next_hand_from_json(row["next_hand"]) if row["next_hand"] else None,
        last_seed=row["last_seed"],
        next_seed=row["next_seed"],
        next_contributions=dict(row["next_contributions"] or {}),
    )


async def save_table(
    session: AsyncSession,
    table: Table,
    public_state: dict[str, Any] | None,
    now: datetime,
    *,
    before: dict[int, Seat],
) -> None:
    """Write the table and the seats that changed since `before` (copies of the seats as loaded)."""
    await session.execute(_UPDATE_TABLE, {"key_table_id": table.table_id, **_table_values(table, public_state, now)})
    gone = set(before) - set(table.seats)
    if gone:
        await session.execute(delete(seats).where(seats.c.table_id == table.table_id, seats.c.seat.in_(gone)))
    changed = [
        {"key_table_id": table.table_id, "key_seat": seat.seat, **_seat_values(seat)}
        for seat in table.seats.values()
        if seat.seat in before and seat != before[seat.seat]
    ]
    if changed:  # one executemany for all of them
        await session.execute(_UPDATE_SEAT, changed)
    await _insert_seats(session, table.table_id, [s for s in table.seats.values() if s.seat not in before])


def seats_as_loaded(table: Table) -> dict[int, Seat]:
    """Copies of the table's seats, to save only what a command changed."""
    return {n: replace(seat) for n, seat in table.seats.items()}


async def tables_with_hand_in_progress(session: AsyncSession, shard: int) -> list[str]:
    result = await session.execute(
        select(tables.c.table_id).where(tables.c.shard == shard, tables.c.current_hand_id.is_not(None))
    )
    return list(result.scalars())


async def hands_waiting(session: AsyncSession, shard: int) -> dict[str, datetime]:
    """The shard's tables that keep a StartHand for the end of its pause: table id -> when it is dealt."""
    result = await session.execute(
        select(tables.c.table_id, tables.c.next_hand).where(tables.c.shard == shard, tables.c.next_hand.is_not(None))
    )
    return {table_id: next_hand_from_json(next_hand).due_at for table_id, next_hand in result.all()}


async def tables_nobody_acting(session: AsyncSession, shard: int) -> list[str]:
    """The shard's open tables where every seated player sits out (`model.nobody_acting`)."""
    acting = func.sum(case((seats.c.sitting_out, 0), else_=1))
    result = await session.execute(
        select(tables.c.table_id)
        .join(seats, seats.c.table_id == tables.c.table_id)
        .where(tables.c.shard == shard, tables.c.status != "closed")
        .group_by(tables.c.table_id)
        .having(acting == 0)
    )
    return list(result.scalars())


async def public_table(session: AsyncSession, table_id: str) -> tuple[dict[str, Any], list[dict[str, Any]]] | None:
    """The table row and its seat rows, for the public view."""
    row = (await session.execute(select(tables).where(tables.c.table_id == table_id))).mappings().first()
    if row is None:
        return None
    seat_rows = await session.execute(select(seats).where(seats.c.table_id == table_id).order_by(seats.c.seat))
    return dict(row), [dict(r) for r in seat_rows.mappings()]


def _table_values(table: Table, public_state: dict[str, Any] | None, now: datetime) -> dict[str, Any]:
    return {
        "table_id": table.table_id,
        "tournament_id": table.tournament_id,
        "shard": table.shard,
        "max_seats": table.max_seats,
        "betting_structure": table.structure.value,
        "action_seconds": table.action_seconds,
        "time_bank_seconds": table.time_bank_seconds,
        "disconnect_policy": table.policy.model_dump(mode="json"),
        "status": table.status,
        "first_button": table.first_button,
        "positions": positions_to_json(table.positions) if table.positions else None,
        "level": table.level.model_dump(mode="json") if table.level else None,
        "hand_no": table.hand_no,
        "current_hand_id": table.current_hand_id,
        "public_state": public_state,
        "hand_ended_at": table.hand_ended_at,
        "next_hand": _next_hand_json(table.next_hand) if table.next_hand else None,
        "last_seed": table.last_seed,
        "next_seed": table.next_seed,
        "next_contributions": table.next_contributions or None,
        "updated_at": now,
    }


def _next_hand_json(next_hand: NextHand) -> dict[str, Any]:
    return {
        "hand_no": next_hand.hand_no,
        "level": next_hand.level.model_dump(mode="json"),
        "due_at": next_hand.due_at.isoformat(),
    }


def next_hand_from_json(data: dict[str, Any]) -> NextHand:
    return NextHand(data["hand_no"], Level.model_validate(data["level"]), datetime.fromisoformat(data["due_at"]))


def _seat(row: Any) -> Seat:
    return Seat(
        seat=row["seat"],
        player_id=row["player_id"],
        stack=row["stack"],
        time_bank_ms=row["time_bank_ms"],
        sitting_out=row["sitting_out"],
        sit_out_reason=row["sit_out_reason"],
        connected=row["connected"],
        pending_chips=row["pending_chips"],
        leaving=row["leaving"],
    )


def _seat_values(seat: Seat) -> dict[str, Any]:
    return {
        "player_id": seat.player_id,
        "stack": seat.stack,
        "sitting_out": seat.sitting_out,
        "sit_out_reason": seat.sit_out_reason,
        "connected": seat.connected,
        "time_bank_ms": seat.time_bank_ms,
        "pending_chips": seat.pending_chips,
        "leaving": seat.leaving,
    }


async def _insert_seats(session: AsyncSession, table_id: str, new: Iterable[Seat]) -> None:
    rows = [{"table_id": table_id, "seat": seat.seat, **_seat_values(seat)} for seat in new]
    if rows:
        await session.execute(insert(seats), rows)


# ----------------------------------------------------------------------------------------------------- hands


async def insert_hand(
    session: AsyncSession,
    *,
    hand_id: str,
    table: Table,
    level: Level,
    config: HandConfig,
    deck: Sequence[int],
    source: DeckSource,
    now: datetime,
) -> None:
    await session.execute(
        insert(hands).values(
            hand_id=hand_id,
            table_id=table.table_id,
            tournament_id=table.tournament_id,
            hand_no=table.hand_no,
            status="in_progress",
            level=level.model_dump(mode="json"),
            config=config_to_json(config),
            start_stacks=seat_map_to_json(config.start_stacks),
            set_aside={},
            actions=[],
            deck=deck_to_text(deck),
            seed=source.seed.hex(),
            contributions=list(source.contributions),
            started_at=now,
        )
    )


async def update_hand_play(
    session: AsyncSession,
    hand_id: str,
    *,
    config: HandConfig,
    set_aside: dict[int, int],
    actions: Sequence[RecordedAction],
) -> None:
    """After an action: what replays the hand so far (all-in protection may have changed the configuration)."""
    await session.execute(
        _UPDATE_HAND,
        {
            "key_hand_id": hand_id,
            "config": config_to_json(config),
            "set_aside": seat_map_to_json(set_aside),
            "actions": [action.to_json() for action in actions],
        },
    )


async def end_hand(
    session: AsyncSession, hand_id: str, *, status: str, end_stacks: dict[int, int], now: datetime
) -> None:
    await session.execute(
        _UPDATE_HAND,
        {"key_hand_id": hand_id, "status": status, "end_stacks": seat_map_to_json(end_stacks), "ended_at": now},
    )


async def load_hand(session: AsyncSession, hand_id: str) -> HandRecord | None:
    row = (await session.execute(select(hands).where(hands.c.hand_id == hand_id))).mappings().first()
    return _hand_record(row) if row is not None else None


async def list_hands(session: AsyncSession, table_id: str, *, limit: int, before: int | None) -> list[HandRecord]:
    """The table's hands, newest first; `before`: only hands older than that `seq` (paging)."""
    query = select(hands).where(hands.c.table_id == table_id)
    if before is not None:
        query = query.where(hands.c.seq < before)
    rows = (await session.execute(query.order_by(hands.c.seq.desc()).limit(limit))).mappings().all()
    return [_hand_record(row) for row in rows]


async def list_tournament_hands(
    session: AsyncSession, tournament_id: str, *, limit: int, before: int | None
) -> list[HandRecord]:
    """The hands of every table the tournament had, newest first; `before` as in `list_hands`. Through the
    tournament's tables (`tables.tournament_id` is indexed, as `hands.table_id` is), not `hands.tournament_id`."""
    its_tables = select(tables.c.table_id).where(tables.c.tournament_id == tournament_id)
    query = select(hands).where(hands.c.table_id.in_(its_tables))
    if before is not None:
        query = query.where(hands.c.seq < before)
    rows = (await session.execute(query.order_by(hands.c.seq.desc()).limit(limit))).mappings().all()
    return [_hand_record(row) for row in rows]


def _hand_record(row: Any) -> HandRecord:
    return HandRecord(
        seq=row["seq"],
        hand_id=row["hand_id"],
        table_id=row["table_id"],
        tournament_id=row["tournament_id"],
        hand_no=row["hand_no"],
        status=row["status"],
        level=Level.model_validate(row["level"]),
        config=config_from_json(row["config"]),
        start_stacks=seat_map_from_json(row["start_stacks"]),
        set_aside=seat_map_from_json(row["set_aside"]),
        actions=[RecordedAction.from_json(action) for action in row["actions"]],
        deck=deck_from_text(row["deck"]),
        source=_deck_source(row["seed"], row["contributions"]),
        end_stacks=seat_map_from_json(row["end_stacks"]) if row["end_stacks"] is not None else None,
        started_at=row["started_at"],
        ended_at=row["ended_at"],
    )


def _deck_source(seed: str | None, contributions: list[str] | None) -> DeckSource | None:
    if seed is None:
        return None
    return DeckSource(bytes.fromhex(seed), tuple(contributions or ()))


# ----------------------------------------------------------------------------------------------- protections


async def protections_used(session: AsyncSession, scope: str, player_id: str) -> int:
    used = await session.scalar(
        select(protections.c.used).where(protections.c.scope == scope, protections.c.player_id == player_id)
    )
    return int(used or 0)


async def count_protection(session: AsyncSession, scope: str, player_id: str) -> None:
    updated = await session.execute(
        update(protections)
        .where(protections.c.scope == scope, protections.c.player_id == player_id)
        .values(used=protections.c.used + 1)
    )
    if not updated.rowcount:  # type: ignore[attr-defined]
        await session.execute(insert(protections).values(scope=scope, player_id=player_id, used=1))


# ------------------------------------------------------------------------------------------------- chat bans


async def record_chat_ban(
    session: AsyncSession, sanction_id: str, player_id: str, kind: str, starts_at: datetime, ends_at: datetime | None
) -> None:
    """Idempotent: a sanction already recorded is left as it is."""
    exists = await session.scalar(select(chat_bans.c.sanction_id).where(chat_bans.c.sanction_id == sanction_id))
    if exists is None:
        await session.execute(
            insert(chat_bans).values(
                sanction_id=sanction_id, player_id=player_id, kind=kind, starts_at=starts_at, ends_at=ends_at
            )
        )


async def lift_chat_ban(session: AsyncSession, sanction_id: str) -> None:
    await session.execute(delete(chat_bans).where(chat_bans.c.sanction_id == sanction_id))


async def chat_banned(session: AsyncSession, player_id: str, now: datetime) -> bool:
    found = await session.scalar(
        select(chat_bans.c.sanction_id)
        .where(
            chat_bans.c.player_id == player_id,
            chat_bans.c.starts_at <= now,
            or_(chat_bans.c.ends_at.is_(None), chat_bans.c.ends_at > now),
        )
        .limit(1)
    )
    return found is not None
