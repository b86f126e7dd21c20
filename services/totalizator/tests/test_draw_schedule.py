"""Issue 17: a newcomer finds a draw already scheduled — the totalizator keeps one draw open for coupons (on by
default in standalone mode only), opened once per week however many replicas or restarts."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from platform_kit.testing import create_database, drop_database, eventually
from totalizator.adapters import draws as draw_store
from totalizator.api.schemas import DrawIn
from totalizator.domain.draw_schedule import CLUBS, LEAD, next_close, weekly_draw
from totalizator.service.draw_schedule import SCHEDULER, DrawSchedule, draft_of
from totalizator.service.draws import build_draw
from totalizator.settings import Settings
from totalizator_harness import NOW, Platform, PlatformFactory, another_instance, picks, running

# The harness's clock stands on Saturday 1 June 2030, 12:00 UTC: the first Saturday two days on is the 8th.
FIRST = "weekly-2030-W23"
SECOND = "weekly-2030-W24"


def schedule_of(platform: Platform) -> DrawSchedule:
    return DrawSchedule(platform.services.context, platform.services.admin)


async def open_draws(platform: Platform) -> list[str]:
    listed = (await platform.http.get("/v1/draws")).json()
    return [draw["draw_id"] for draw in listed if draw["status"] == "open"]


def test_the_weeks_draw_closes_on_a_saturday_days_ahead_with_kickoffs_after_closing() -> None:
    for hours in range(0, 24 * 8, 5):
        now = NOW + timedelta(hours=hours)
        close_at = next_close(now)
        assert close_at.weekday() == 5 and (close_at.hour, close_at.minute) == (13, 0)
        assert now + LEAD <= close_at < now + LEAD + timedelta(days=7)
    planned = weekly_draw(next_close(NOW))
    assert planned.draw_id == FIRST and planned.close_at == datetime(2030, 6, 8, 13, tzinfo=UTC)
    assert all(planned.close_at < f.kickoff < planned.close_at + timedelta(days=2) for f in planned.fixtures)
    clubs = [club for f in planned.fixtures for club in (f.home, f.away)]
    assert sorted(clubs) == sorted(CLUBS)  # a league round: every club plays once
    assert weekly_draw(next_close(NOW)) == planned  # the same week, the same draw


def test_the_weeks_draw_is_one_the_apis_own_validation_and_the_rules_accept() -> None:
    planned = weekly_draw(next_close(NOW))
    spec = draft_of(planned)
    body: dict[str, Any] = {
        "draw_id": spec.draw_id,
        "close_at": spec.close_at.isoformat(),
        "matches": [
            {"competition": m.competition, "home": m.home, "away": m.away, "kickoff": m.kickoff.isoformat()}
            for m in spec.matches
        ],
        "currencies": [
            {"currency": c.currency, "min_stake": c.min_stake, "usd_rate": c.usd_rate} for c in spec.currencies
        ],
    }
    DrawIn.model_validate(body)
    draw = build_draw(spec)  # T-2.1–T-2.3, T-5.1
    assert draw.terms("USD").min_stake == 10 and draw.terms("EUR").min_stake == 10  # T-2.4: USD 0.10 or its equal
    assert not draw.void_matches
    # Next week's fixtures are another round.
    assert weekly_draw(next_close(NOW + timedelta(days=7))).fixtures[0] != planned.fixtures[0]


def test_the_setting_is_on_in_standalone_mode_only_unless_set() -> None:
    assert Settings(bus_url="memory://").keeps_draw_open() is True
    assert Settings(bus_url="amqp://platform:platform@rabbitmq:5672/").keeps_draw_open() is False
    assert Settings(bus_url="amqp://rabbitmq/", keep_draw_open=True).keeps_draw_open() is True
    assert Settings(bus_url="memory://", keep_draw_open=False).keeps_draw_open() is False


async def test_a_fresh_platform_opens_the_weeks_draw_by_itself_and_a_player_bets_on_it(
    start_platform: PlatformFactory,
) -> None:
    async with start_platform(keep_draw_open=True) as platform:

        async def opened() -> list[str]:
            return await open_draws(platform)

        assert await eventually(opened) == [FIRST]
        draw = (await platform.http.get(f"/v1/draws/{FIRST}")).json()
        assert [m["competition"] for m in draw["matches"]] == ["Serie A"] * 8
        assert {c["currency"]: c["min_stake"] for c in draw["currencies"]} == {"EUR": "0.10", "USD": "0.10"}
        await platform.fund("ann", 500, "EUR")
        coupon = await platform.coupon("ann", picks("1:0", ["2:1", "1:1"]), 20, currency="EUR", draw_id=FIRST)
        assert coupon.status_code == 201, coupon.text
        assert await platform.balance("ann", "EUR") == 480
        decisions = (await platform.staff("GET", f"/draws/{FIRST}/decisions")).json()
        assert [(d["action"], d["role"], d["staff_id"]) for d in decisions] == [
            ("create", "admin", "draw-schedule"),
            ("announce", "admin", "draw-schedule"),
        ]


async def test_replicas_and_a_restart_open_the_weeks_draw_once(platform: Platform) -> None:
    async with another_instance(platform) as replica:
        # Two replicas at once: whichever creates it, both find it open.
        await asyncio.gather(schedule_of(platform).keep(), DrawSchedule(replica.context, replica.admin).keep())
    assert await schedule_of(platform).keep() is None
    async with another_instance(platform) as restarted:
        assert await DrawSchedule(restarted.context, restarted.admin).keep() is None
    assert await open_draws(platform) == [FIRST]
    # Created and announced once (whichever replica's relay publishes the announcement: they share the outbox).
    decisions = (await platform.staff("GET", f"/draws/{FIRST}/decisions")).json()
    assert [d["action"] for d in decisions] == ["create", "announce"]


async def test_a_draft_left_by_a_crash_between_creating_and_announcing_is_announced(platform: Platform) -> None:
    spec = draft_of(weekly_draw(next_close(NOW)))
    schedule = schedule_of(platform)
    await platform.services.admin.create(spec, SCHEDULER)  # created, then the process died
    assert await schedule.keep() == FIRST
    assert await open_draws(platform) == [FIRST]


async def test_when_the_draw_closes_the_next_weeks_opens_and_a_cancelled_week_is_passed_over(
    platform: Platform,
) -> None:
    schedule = schedule_of(platform)
    assert await schedule.keep() == FIRST
    platform.clock.set(datetime(2030, 6, 8, 13, tzinfo=UTC))
    await platform.services.clock.tick()
    assert await open_draws(platform) == []
    assert await schedule.keep() == SECOND
    assert await open_draws(platform) == [SECOND]
    assert (await platform.http.get(f"/v1/draws/{SECOND}")).json()["close_at"] == "2030-06-15T13:00:00Z"

    cancelled = await platform.staff("POST", f"/draws/{SECOND}/cancel", {"reason": "the league postponed its round"})
    assert cancelled.status_code == 200, cancelled.text
    third = await schedule.keep()
    assert third == "weekly-2030-W25"
    assert await open_draws(platform) == [third]


async def test_a_draw_an_administrator_opened_counts_as_the_open_one(platform: Platform) -> None:
    await platform.open_draw("2030-23")
    assert await schedule_of(platform).keep() is None
    assert await open_draws(platform) == ["2030-23"]


@pytest.mark.postgres
async def test_replicas_racing_on_postgres_open_one_draw(postgres_url: str, monkeypatch: pytest.MonkeyPatch) -> None:
    # Widen the race: each replica dawdles between finding no draw of the week and inserting it, so both insert.
    exists = draw_store.exists

    async def slow_exists(*args: Any, **kwargs: Any) -> bool:
        found = await exists(*args, **kwargs)
        await asyncio.sleep(0.2)
        return found

    monkeypatch.setattr(draw_store, "exists", slow_exists)
    wallet_url = await create_database()
    try:
        async with running(postgres_url, wallet_url) as platform, another_instance(platform) as replica:
            opened = await asyncio.gather(
                schedule_of(platform).keep(), DrawSchedule(replica.context, replica.admin).keep()
            )
            assert opened == [FIRST, FIRST]  # the loser was told draw_exists and announced the same draw
            assert await open_draws(platform) == [FIRST]
            decisions = (await platform.staff("GET", f"/draws/{FIRST}/decisions")).json()
            assert [d["action"] for d in decisions] == ["create", "announce"]  # once each
    finally:
        await drop_database(wallet_url)
