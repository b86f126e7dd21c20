"""P-12.5 and issue 17 read together: a player's record, restrictions and protection settings come from one
statement (an outer join: one row per restriction), on SQLite and on PostgreSQL."""

from __future__ import annotations

from datetime import timedelta

import pytest
from gateway.adapters import protection_store
from gateway.adapters.standing_store import play_standing
from gateway.domain.protection import ExclusionTerm
from gateway.domain.restrictions import RestrictionKind
from gateway.service.restrictions import set_player_restriction
from gateway_test_support import Driver, fast_settings, running
from platform_kit.clock import FrozenClock


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

    async with context.db.read_connection() as connection:
        nothing = await play_standing(connection, plain)
        both = await play_standing(connection, sanctioned)
        unknown = await play_standing(connection, "no-such-player")

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
