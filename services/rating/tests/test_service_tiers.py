"""Tiers through the running service (P-11.3, P-11.4, P-11.6, P-11.8): the daily job, its events, and the
absence of any way to set a tier by hand."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
from fastapi.routing import APIRoute, iter_route_contexts
from platform_kit.testing import eventually
from pydantic import BaseModel
from rating.app import create_app
from rating.settings import Settings
from rating_service_support import NOW, TODAY, YESTERDAY, Service, finished, running_service

PLAYERS = [f"p{n:02d}" for n in range(1, 11)]


async def tier_of(service: Service, player: str) -> str:
    response = await service.http.post("/internal/v1/eligibility", json={"player_id": player})
    assert response.status_code == 200, response.text
    return str(response.json()["tier"])


async def changes(service: Service) -> list[tuple[str, str, str, str]]:
    return [(e.player_id, e.previous, e.current, e.as_of_day) for e in await service.published("rating.tier.changed")]


async def test_p11_3_closing_a_day_splits_the_active_players_in_five_equal_parts(service: Service) -> None:
    await service.publish(finished("t1", PLAYERS))
    run = await service.close_day(YESTERDAY)
    assert run == {"day": "2025-03-01", "active_count": 10, "changes": 10}
    expected = ["GRUPPO_UNO"] * 2 + ["GRUPPO_DUE"] * 2 + ["GRUPPO_TRE"] * 2 + ["LISTED"] * 2 + ["CONDIZIONATA"] * 2
    assert [await tier_of(service, p) for p in PLAYERS] == expected
    assert await changes(service) == [
        (p, "ESORDIENTE", t, "2025-03-01") for p, t in zip(PLAYERS, expected, strict=True)
    ]


async def test_p11_3_closing_the_same_day_again_publishes_nothing_new(service: Service) -> None:
    await service.publish(finished("t1", PLAYERS))
    await service.close_day(YESTERDAY)
    published = len(await changes(service))
    assert (await service.close_day(YESTERDAY))["changes"] == 0
    assert len(await changes(service)) == published


async def test_p11_3_a_result_of_a_closed_day_arriving_late_is_picked_up_by_closing_it_again(
    service: Service,
) -> None:
    await service.publish(finished("t1", ["alice", "bob"]))
    await service.close_day(YESTERDAY)
    await service.publish(finished("t2", ["bob", "alice"], pool_cents=1_000_000))
    assert (await service.close_day(YESTERDAY))["changes"] == 2
    assert (await changes(service))[-2:] == [
        ("alice", "GRUPPO_UNO", "GRUPPO_DUE", "2025-03-01"),
        ("bob", "GRUPPO_DUE", "GRUPPO_UNO", "2025-03-01"),
    ]


async def test_p11_3_tiers_of_a_day_count_only_the_results_up_to_that_day(service: Service) -> None:
    await service.publish(finished("t1", ["alice", "bob"]))
    # Bob wins big today, before yesterday's tiers are (re)computed: they must not see it.
    await service.publish(finished("t2", ["bob"], pool_cents=1_000_000, at=NOW + timedelta(hours=3)))
    await service.close_day(YESTERDAY)
    assert (await tier_of(service, "alice"), await tier_of(service, "bob")) == ("GRUPPO_UNO", "GRUPPO_DUE")
    service.clock.advance(timedelta(days=1))
    await service.close_day(TODAY)
    assert (await tier_of(service, "alice"), await tier_of(service, "bob")) == ("GRUPPO_DUE", "GRUPPO_UNO")


async def test_p11_8_players_tied_on_rating_take_the_better_tier(service: Service) -> None:
    await service.publish(finished("t1", [("a", 1), ("b", 2), ("c", 2), ("d", 4), ("e", 5)]))
    await service.close_day(YESTERDAY)
    tiers = [await tier_of(service, p) for p in "abcde"]
    assert tiers == ["GRUPPO_UNO", "GRUPPO_DUE", "GRUPPO_DUE", "LISTED", "CONDIZIONATA"]


async def test_p11_4_a_player_who_never_played_is_esordiente(service: Service) -> None:
    await service.publish(finished("t1", ["alice"]))
    await service.close_day(YESTERDAY)
    assert await tier_of(service, "newcomer") == "ESORDIENTE"


async def test_p11_4_a_player_whose_last_tournament_is_360_days_old_is_inattivo(service: Service) -> None:
    await service.publish(finished("t1", ["alice", "bob"]))
    await service.close_day(YESTERDAY)
    last_active_day = YESTERDAY + timedelta(days=359)
    service.clock.set(NOW + timedelta(days=361))
    await service.close_day(last_active_day)
    assert await tier_of(service, "alice") == "GRUPPO_UNO"
    await service.close_day(last_active_day + timedelta(days=1))
    assert await tier_of(service, "alice") == "INATTIVO"
    assert (await changes(service))[-2:] == [
        ("alice", "GRUPPO_UNO", "INATTIVO", (last_active_day + timedelta(days=1)).isoformat()),
        ("bob", "GRUPPO_DUE", "INATTIVO", (last_active_day + timedelta(days=1)).isoformat()),
    ]


async def test_tiers_never_go_back_to_an_earlier_day_nor_ahead_of_the_clock(service: Service) -> None:
    earlier = await service.http.post("/internal/v1/jobs/tiers", json={"day": "2025-02-27"})
    assert (earlier.status_code, earlier.json()["code"]) == (409, "rating.tier_day_superseded")
    today = await service.http.post("/internal/v1/jobs/tiers", json={"day": TODAY.isoformat()})
    assert (today.status_code, today.json()["code"]) == (422, "rating.day_not_closed")


async def test_p11_3_the_background_job_closes_each_day_at_midnight_in_rome(fresh_sqlite: str) -> None:
    async with running_service(fresh_sqlite, migrate_on_start=False, tier_job_interval_seconds=0.01) as service:
        await service.publish(finished("t1", ["alice", "bob"], at=datetime(2025, 3, 2, 15, 0, tzinfo=UTC)))
        service.clock.set(datetime(2025, 3, 2, 22, 59, tzinfo=UTC))  # 23:59 in Rome: 2 March is not over
        await service.settle()
        assert await changes(service) == []
        service.clock.set(datetime(2025, 3, 2, 23, 0, 1, tzinfo=UTC))  # past midnight in Rome

        async def closed() -> list[tuple[str, str, str, str]]:
            return await changes(service)

        assert await eventually(closed) == [
            ("alice", "ESORDIENTE", "GRUPPO_UNO", "2025-03-02"),
            ("bob", "ESORDIENTE", "GRUPPO_DUE", "2025-03-02"),
        ]


# -- P-11.6: no API sets a tier ---------------------------------------------------------------------------------
# Every route that changes anything, and why none of them can set a tier. A new one must be added here, after
# checking that it does not either.
CHANGING_ROUTES = {
    ("POST", "/internal/v1/eligibility"),  # a question: reads the tier in force
    ("POST", "/internal/v1/reports"),
    ("POST", "/internal/v1/reports/{report_id}/dismissal"),
    ("POST", "/internal/v1/sanctions"),
    ("POST", "/internal/v1/sanctions/{sanction_id}/appeal"),
    ("POST", "/internal/v1/sanctions/{sanction_id}/appeal/decision"),
    ("POST", "/internal/v1/jobs/tiers"),  # derives tiers from ratings; takes only the day to close
    ("POST", "/internal/v1/jobs/sanction-expiry"),
}


def field_names(model: type[BaseModel]) -> set[str]:
    names = set(model.model_fields)
    for field in model.model_fields.values():
        if isinstance(field.annotation, type) and issubclass(field.annotation, BaseModel):
            names |= field_names(field.annotation)
    return names


def test_p11_6_no_route_sets_a_tier_by_hand() -> None:
    app = create_app(Settings(database_url="sqlite+aiosqlite:///:memory:", migrate_on_start=False))
    # Included routers are resolved lazily by this FastAPI: walk their effective routes with full paths.
    routes = [
        (context.path or "", context.original_route)
        for context in iter_route_contexts(app.routes)
        if isinstance(context.original_route, APIRoute)
    ]
    assert len(routes) > 10
    changing = {(m, path) for path, r in routes for m in r.methods or () if m not in ("GET", "HEAD", "OPTIONS")}
    assert changing == CHANGING_ROUTES
    bodies: dict[str, type[BaseModel]] = {}
    for path, route in routes:
        model = None if route.body_field is None else route.body_field.field_info.annotation
        if model is not None:
            assert isinstance(model, type) and issubclass(model, BaseModel), path
            bodies[path] = model
    for path, model in bodies.items():
        assert not {"tier", "tiers", "current", "previous"} & field_names(model), path
    assert set(bodies["/internal/v1/jobs/tiers"].model_fields) == {"day"}


@pytest.mark.parametrize("method", ["PUT", "PATCH", "POST"])
async def test_p11_6_writing_a_players_tier_is_not_a_route(service: Service, method: str) -> None:
    for path in ("/internal/v1/players/p01/tier", "/internal/v1/tiers/p01", "/v1/players/p01/tier"):
        response = await service.http.request(method, path, json={"tier": "GRUPPO_UNO"})
        assert response.status_code in (404, 405)
