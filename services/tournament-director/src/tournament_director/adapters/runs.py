"""Run snapshots: `TournamentRun.to_json()` per running tournament, and when its clock next needs it."""

from __future__ import annotations

import json
import random
from datetime import datetime

from sqlalchemy import select, update
from sqlalchemy.ext.asyncio import AsyncSession

from tournament_director.adapters.orm import runs
from tournament_director.domain.run import TournamentRun


async def load(session: AsyncSession, tournament_id: str, rng: random.Random) -> TournamentRun | None:
    """The run, its row locked for the rest of the transaction: calls on one run never interleave."""
    query = select(runs.c.state).where(runs.c.tournament_id == tournament_id).with_for_update()
    state = await session.scalar(query)
    return None if state is None else TournamentRun.restore(json.loads(state), rng)


async def peek(session: AsyncSession, tournament_id: str, rng: random.Random) -> TournamentRun | None:
    """The run as last saved, for reading only (no lock)."""
    state = await session.scalar(select(runs.c.state).where(runs.c.tournament_id == tournament_id))
    return None if state is None else TournamentRun.restore(json.loads(state), rng)


async def save(session: AsyncSession, run: TournamentRun, now: datetime) -> None:
    """Insert or replace the snapshot; `next_clock_at` is cleared once the run is over."""
    values = {
        "state": json.dumps(run.to_json(), separators=(",", ":")),
        "next_clock_at": None if run.is_over else run.next_clock_change(),
        "updated_at": now,
    }
    changed = await session.execute(update(runs).where(runs.c.tournament_id == run.tournament_id).values(**values))
    if changed.rowcount == 0:  # type: ignore[attr-defined]
        await session.execute(runs.insert().values(tournament_id=run.tournament_id, **values))


async def due_for_clock(session: AsyncSession, now: datetime) -> list[str]:
    query = select(runs.c.tournament_id).where(runs.c.next_clock_at.is_not(None), runs.c.next_clock_at <= now)
    return list((await session.scalars(query)).all())
