"""The protection row of a player is written with one insert-or-update: two first writes for one player at once
(a log-in starting a session while a setting is saved) both succeed, the second waiting for the first, instead
of the later one failing on the primary key with a 500."""

import asyncio
from datetime import timedelta

import pytest
from gateway.adapters import protection_store
from gateway.adapters.orm import player_protection
from gateway_test_support import fast_settings, running
from platform_kit.clock import FrozenClock
from platform_kit.testing import eventually
from sqlalchemy import text


@pytest.mark.postgres
async def test_two_first_writes_for_one_player_at_once_both_land(postgres_url: str, clock: FrozenClock) -> None:
    async with running(fast_settings(postgres_url), clock) as driver:
        player_id = (await driver.player_session("Concurrent"))["principal"]["id"]
        db = driver.services.context.db
        async with db.transaction() as session:  # the sign-up's session row: gone, so both writes are first ones
            await session.execute(player_protection.delete().where(player_protection.c.player_id == player_id))
        now = clock.now()
        first_written = asyncio.Event()
        second_waiting = asyncio.Event()

        async def first() -> None:
            async with db.transaction() as session:
                await protection_store.put(session, player_id, now, reality_check_minutes=30)
                first_written.set()
                await second_waiting.wait()  # commit only once the second insert waits on this one's row

        async def second() -> None:
            await first_written.wait()
            async with db.transaction() as session:
                await protection_store.put(session, player_id, now + timedelta(seconds=1), session_started_at=now)

        async def blocked_on_a_lock() -> bool:
            async with db.sessions() as session:
                query = "SELECT count(*) FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND datname = current_database()"
                return bool((await session.execute(text(query))).scalar())

        async def watch() -> None:
            await first_written.wait()
            await eventually(blocked_on_a_lock)
            second_waiting.set()

        await asyncio.gather(first(), second(), watch())
        async with db.sessions() as session:
            record = await protection_store.get(session, player_id)
        assert record.rules.reality_check_minutes == 30  # the first write, kept
        assert record.session_started_at == now  # the second, added to the same row
