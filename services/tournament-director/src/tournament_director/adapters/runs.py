"""Run snapshots: `TournamentRun.snapshot()` (its `to_json()` as JSON text) per running tournament, its version,
and when its clock next needs it.

Restoring a run from its snapshot costs about 25 ms for 3,000 players (parse + rebuild), on every table's every
hand. A `RunCache` keeps, per process, the runs this process saved last with their snapshot version: a call on
a run whose row still has that version (nobody else saved it since) takes the object from memory instead. The
run leaves the cache while a transaction uses it and comes back only once that transaction commits, so a call
that failed halfway is never seen again: the next one restores the snapshot. Within one transaction (a batch of
messages), a run saved by one call is handed to the next one from memory too.

Readers (`peek`: a player's page, the tournament's page) never take the run. While a writer holds it (from its
`load` to its commit, which under load is most of the time: hand results arrive several a second) a reader
finds no run at the row's version, so it restores the snapshot and keeps that copy for the next readers of the
same version, apart from the writers' runs: a busy tournament costs one restore per version that is read, not
one per read (a 3,000-player run's seat lookups restored the snapshot on every request: issue 14).
"""

from __future__ import annotations

import json
import random
from collections import OrderedDict
from datetime import datetime

from sqlalchemy import event, select, update
from sqlalchemy.ext.asyncio import AsyncSession

from tournament_director.adapters.orm import runs
from tournament_director.domain.run import TournamentRun

#: Runs kept per process: every running tournament of a busy network, with room to spare.
CACHED_RUNS = 256
_SAVED_IN_TRANSACTION = "tournament_director.runs_saved_in_transaction"


class RunCache:
    """The runs this process saved last, by tournament id, with their snapshot version (see the module doc)."""

    def __init__(self, size: int = CACHED_RUNS) -> None:
        self._size = size
        self._runs: OrderedDict[str, tuple[int, TournamentRun]] = OrderedDict()
        #: Restored by readers, for readers only (never handed to a writer, which would change it under them).
        self._read_copies: OrderedDict[str, tuple[int, TournamentRun]] = OrderedDict()
        self.hits = 0
        self.misses = 0

    def take(self, tournament_id: str, version: int) -> TournamentRun | None:
        """The cached run if it is at `version`; it leaves the cache either way (the caller may change it)."""
        cached = self._runs.pop(tournament_id, None)
        if cached is not None and cached[0] == version:
            self.hits += 1
            return cached[1]
        self.misses += 1
        return None

    def peek(self, tournament_id: str, version: int) -> TournamentRun | None:
        """The cached run if it is at `version`, left in the cache: for reading only. (A call may change it
        after this returns, but only into a newer state: domain calls never wait halfway.)"""
        for kept in (self._runs, self._read_copies):
            cached = kept.get(tournament_id)
            if cached is not None and cached[0] == version:
                return cached[1]
        return None

    def keep_read_copy(self, tournament_id: str, version: int, run: TournamentRun) -> None:
        """A run a reader restored at `version`, for the readers that follow until the next save."""
        self._read_copies[tournament_id] = (version, run)
        self._read_copies.move_to_end(tournament_id)
        while len(self._read_copies) > self._size:
            self._read_copies.popitem(last=False)

    def keep_after_commit(self, session: AsyncSession, run: TournamentRun, version: int) -> None:
        """Keep `run` at `version` once the transaction commits; until then, later calls of the same transaction
        (the several messages a consumer applies together) take it with `take_saved`. A run over is not kept."""
        saved: dict[str, tuple[int, TournamentRun]] | None = session.info.get(_SAVED_IN_TRANSACTION)
        if saved is None:
            saved = session.info[_SAVED_IN_TRANSACTION] = {}
            event.listen(session.sync_session, "after_commit", lambda _: self._keep_all(saved), once=True)
        if run.is_over:
            saved.pop(run.tournament_id, None)
        else:
            saved[run.tournament_id] = (version, run)

    @staticmethod
    def take_saved(session: AsyncSession, tournament_id: str, version: int) -> TournamentRun | None:
        """The run this transaction saved last at `version`. It is no longer kept at the commit unless it is
        saved again: a call that changes it and then fails to save leaves nothing stale behind."""
        saved = session.info.get(_SAVED_IN_TRANSACTION)
        entry = saved.pop(tournament_id, None) if saved else None
        return entry[1] if entry is not None and entry[0] == version else None

    def _keep_all(self, saved: dict[str, tuple[int, TournamentRun]]) -> None:
        for tournament_id, (version, run) in saved.items():
            self._runs[tournament_id] = (version, run)
            self._runs.move_to_end(tournament_id)
        while len(self._runs) > self._size:
            self._runs.popitem(last=False)


async def load(
    session: AsyncSession, tournament_id: str, rng: random.Random, cache: RunCache | None = None
) -> TournamentRun | None:
    """The run, its row locked for the rest of the transaction: calls on one run never interleave."""
    query = select(runs.c.version).where(runs.c.tournament_id == tournament_id).with_for_update()
    version = await session.scalar(query)
    if version is None:
        return None
    if cache is not None:
        cached = cache.take_saved(session, tournament_id, version) or cache.take(tournament_id, version)
        if cached is not None:
            return cached
    return await _restore(session, tournament_id, rng)


async def peek(
    session: AsyncSession, tournament_id: str, rng: random.Random, cache: RunCache | None = None
) -> TournamentRun | None:
    """The run as last saved, for reading only (no lock): from the cache when it holds that version."""
    version = await session.scalar(select(runs.c.version).where(runs.c.tournament_id == tournament_id))
    if version is None:
        return None
    if cache is None:
        return await _restore(session, tournament_id, rng)
    if (cached := cache.peek(tournament_id, version)) is not None:
        return cached
    state, version = await _snapshot(session, tournament_id)
    # Readers that missed together all waited for the snapshot: the first to get here restores it for the rest.
    if (cached := cache.peek(tournament_id, version)) is not None:
        return cached
    run = TournamentRun.restore(json.loads(state), rng)
    cache.keep_read_copy(tournament_id, version, run)
    return run


async def _restore(session: AsyncSession, tournament_id: str, rng: random.Random) -> TournamentRun:
    """The run rebuilt from its snapshot (whose row the caller found)."""
    state, _ = await _snapshot(session, tournament_id)
    return TournamentRun.restore(json.loads(state), rng)


async def _snapshot(session: AsyncSession, tournament_id: str) -> tuple[str, int]:
    """The snapshot text and its version, read together (a save may have come between two reads)."""
    row = (
        await session.execute(select(runs.c.state, runs.c.version).where(runs.c.tournament_id == tournament_id))
    ).one()
    return row.state, row.version


async def save(session: AsyncSession, run: TournamentRun, now: datetime, cache: RunCache | None = None) -> None:
    """Insert or replace the snapshot and bump its version; `next_clock_at` and `paused_at` are cleared once the
    run is over."""
    values = {
        "state": run.snapshot(),
        "next_clock_at": None if run.is_over else run.next_clock_change(),
        "paused_at": None if run.is_over else run.paused_at,
        "updated_at": now,
    }
    bumped = update(runs).where(runs.c.tournament_id == run.tournament_id).values(version=runs.c.version + 1, **values)
    version = await session.scalar(bumped.returning(runs.c.version))
    if version is None:
        version = 1
        await session.execute(runs.insert().values(tournament_id=run.tournament_id, version=version, **values))
    if cache is not None:
        cache.keep_after_commit(session, run, version)


async def due_for_clock(session: AsyncSession, now: datetime) -> list[str]:
    query = select(runs.c.tournament_id).where(runs.c.next_clock_at.is_not(None), runs.c.next_clock_at <= now)
    return list((await session.scalars(query)).all())
