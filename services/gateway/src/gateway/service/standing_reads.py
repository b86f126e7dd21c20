"""Players read together: a player asked for while a reader is free is read at once; the players asked for while
every reader is busy are read by the next free one, in one statement, each with their standing
(`standing_store.play_standings`).

Every play request asks for its player's standing (each action at a table, each coupon, each registration), and
every request naming a player for their record (`GET /players/me`, a client's first call and its refresh). Read
one by one, each was a round trip to the database of its own. With 50 clients, each a player of its own, one
gateway on PostgreSQL answered 850 `GET /players/me` a second and 872 table actions; reading the players together,
2,533 and 1,583 (bench_gateway, issue 14). Under light load a read is one player, as before; the busier the
gateway, the more players a read takes.

Invariant: a standing is read by a statement that begins after it was asked for (a read takes only what waited
before it began), so a restriction or a self-exclusion committed before a request asks is always seen by it — as
when each request read its own. Nothing is kept between reads.

Crash behaviour: nothing is written. A read that fails fails each request that waited for it (a pool timeout is
a 503 with Retry-After, as before); a request that gives up waiting leaves the others' read to go on.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from contextlib import AbstractAsyncContextManager

from platform_kit.keyed_batches import KeyedBatches
from sqlalchemy.ext.asyncio import AsyncConnection

from gateway.adapters.identity_store import PlayerRecord
from gateway.adapters.standing_store import PlayStanding, play_standings

MAX_PLAYERS_PER_READ = 64
"""Players one statement reads at most (the IN list of `play_standings`)."""
READS_AT_ONCE = 4
"""Reads under way at once at most: a request that comes while fewer run starts one of its own at once, and only
when all are busy waits to go in the next. One at a time, a request at light load waited for the read under way
and then for its own (sit'n'go at human pace, issue 14); four leave the pool's other connections to the routes
that write."""
_KEY = "standings"  # one queue of reads: they are all the same statement


class StandingReads:
    def __init__(self, read_connection: Callable[[], AbstractAsyncContextManager[AsyncConnection]]) -> None:
        """`read_connection`: `UnitsOfWork.read_connection`."""
        self._read_connection = read_connection
        self._reads = KeyedBatches[str, PlayStanding](self._read, max_size=MAX_PLAYERS_PER_READ, runners=READS_AT_ONCE)

    async def standing(self, player_id: str) -> PlayStanding:
        """The player's restrictions and protection settings, with their record (None: no such player)."""
        return await self._reads.submit(_KEY, player_id)

    async def player(self, player_id: str) -> PlayerRecord | None:
        """The player's record (None: no such player), read in the same statements as the standings."""
        return (await self.standing(player_id)).player

    async def _read(self, key: str, player_ids: Sequence[str]) -> list[PlayStanding]:
        async with self._read_connection() as connection:
            standings = await play_standings(connection, player_ids)
        return [standings[player_id] for player_id in player_ids]
