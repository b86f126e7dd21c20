"""P-12.5 and issue 17 read together: players' records, restrictions and protection settings come from one
statement (an outer join: one row per restriction), for one player or for several asking at once
(`service/standing_reads.py`), on SQLite and on PostgreSQL."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from datetime import timedelta

import pytest
from gateway.adapters import protection_store
from gateway.adapters.standing_store import play_standings
from gateway.domain.protection import ExclusionTerm
from gateway.domain.restrictions import RestrictionKind
from gateway.service.restrictions import set_player_restriction
from gateway.service.standing_reads import StandingReads
from gateway_test_support import Driver, fast_settings, running
from platform_kit.clock import FrozenClock
from platform_kit.testing import DatabaseTraffic
from sqlalchemy.ext.asyncio import AsyncConnection


async def standing_checks(driver: Driver) -> None:
    context = driver.services.context
    now = context.clock.now()
    plain = (await driver.player_session("Plain"))["principal"]["id"]
    sanctioned = (await driver.player_session("Sanctioned"))["principal"]["id"]
    async with context.db.transaction() as session:
        for n, (kind, until) in enumerate(
            [(RestrictionKind.CHAT_BANNED, None), (RestrictionKind.BANNED, now - timedelta(days=1))]
        ):
            await set_player_restriction(session, f"s-{n}", sanctioned, kind, until, f"reason {n}", now)
        await protection_store.put(
            session, sanctioned, now, exclusion_term=ExclusionTerm.DAYS_30.value, excluded_from=now,
            excluded_until=now + timedelta(days=30), reality_check_minutes=30,
        )  # fmt: skip

    with DatabaseTraffic() as traffic:
        async with context.db.read_connection() as connection:
            standings = await play_standings(connection, [plain, sanctioned, "no-such-player", plain])
    nothing, both, unknown = standings[plain], standings[sanctioned], standings["no-such-player"]

    assert len([sql for sql in traffic.sql if "FROM players" in sql]) == 1, "every player in one statement"
    assert sorted(standings) == sorted([plain, sanctioned, "no-such-player"])

    assert nothing.player is not None and (nothing.player.id, nothing.player.nickname) == (plain, "Plain")
    assert both.player is not None and both.player.id == sanctioned, "one player, however many restrictions"
    assert unknown.player is None
    assert nothing.restrictions == [] and nothing.protection.exclusion is None
    assert nothing.protection.rules.reality_check_minutes is None
    assert sorted((r.kind, r.reason) for r in both.restrictions) == [
        (RestrictionKind.BANNED, "reason 1"),
        (RestrictionKind.CHAT_BANNED, "reason 0"),
    ]
    assert both.protection.exclusion is not None and both.protection.exclusion.term is ExclusionTerm.DAYS_30
    assert both.protection.rules.reality_check_minutes == 30
    assert unknown.restrictions == [] and unknown.protection.exclusion is None


async def test_p12_5_restrictions_and_protection_in_one_read_on_sqlite(driver: Driver) -> None:
    await standing_checks(driver)


@pytest.mark.postgres
async def test_p12_5_restrictions_and_protection_in_one_read_on_postgresql(
    postgres_url: str, clock: FrozenClock
) -> None:
    async with running(fast_settings(postgres_url), clock) as driver:
        await standing_checks(driver)


async def test_p12_5_standings_asked_at_once_are_read_in_one_statement(driver: Driver) -> None:
    """Issue 14: in a closing rush each coupon's standing was a round trip of its own."""
    ids = [(await driver.player_session(f"Bettor{n}"))["principal"]["id"] for n in range(21)]
    reads = StandingReads(driver.services.context.units.read_connection)
    with DatabaseTraffic() as traffic:
        standings = await asyncio.gather(*(reads.standing(player_id) for player_id in ids))
    assert [standing.player.id for standing in standings if standing.player is not None] == ids
    assert len([sql for sql in traffic.sql if "FROM players" in sql]) == 1
    # A player's record alone (`Players.get`: GET /players/me) is read in the same statements.
    records = await asyncio.gather(reads.player(ids[0]), reads.player("no-such-player"))
    assert records[0] is not None and records[0].id == ids[0] and records[1] is None


async def test_p12_5_a_ban_committed_while_a_read_runs_is_seen_by_a_request_asking_after_it(driver: Driver) -> None:
    """A request is never answered by a read that began before it asked: that read could miss a ban committed in
    between (the invariant of `standing_reads`)."""
    context = driver.services.context
    player = (await driver.player_session("Late"))["principal"]["id"]
    read, release = asyncio.Event(), asyncio.Event()

    @asynccontextmanager
    async def held_after_reading() -> AsyncIterator[AsyncConnection]:
        async with context.units.read_connection() as connection:
            yield connection
        read.set()  # the statement has run; the read is not over until released
        await release.wait()

    reads = StandingReads(held_after_reading)
    first = asyncio.create_task(reads.standing(player))
    await read.wait()
    async with context.db.transaction() as session:
        await set_player_restriction(session, "s-1", player, RestrictionKind.BANNED, None, "fraud", context.clock.now())
    second = asyncio.create_task(reads.standing(player))
    release.set()
    assert (await first).restrictions == []
    assert [restriction.kind for restriction in (await second).restrictions] == [RestrictionKind.BANNED]
