"""`since`, `until` and `day` in queries: typed and bounded, checked together, and refused with a 422 naming the
field before anything reaches the owning service."""

from typing import Any

import pytest
from fake_services import FakeServices, ok
from gateway_test_support import Driver

STATEMENT = r"/internal/v1/partner/players/.*/statement"


async def _statement(driver: Driver, params: dict[str, Any], expect: int) -> Any:
    mario = await driver.player_session("Mario")
    path = f"/api/v1/players/{mario['principal']['id']}/statement"
    return (await driver.call("GET", path, token=mario["access_token"], params=params, expect=expect)).json()


def _field_errors(answer: Any) -> list[tuple[str, str]]:
    assert answer["code"] == "validation_failed"
    return [(error["field"], error["code"]) for error in answer["errors"]]


async def test_since_after_until_is_refused(driver: Driver, services: FakeServices) -> None:
    period = {"since": "2026-03-02T00:00:00Z", "until": "2026-03-01T00:00:00Z"}
    answer = await _statement(driver, period, expect=422)
    assert _field_errors(answer) == [("query.since", "since_after_until")]
    assert services.to("wallet") == []


async def test_a_period_with_offsets_reaches_the_wallet_as_iso_instants(driver: Driver, services: FakeServices) -> None:
    services.on("wallet", "GET", STATEMENT, ok({"items": [], "next_cursor": None}))
    await _statement(driver, {"since": "2026-03-01T00:00:00+01:00", "until": "2026-03-01T00:00:00+01:00"}, 200)
    [call] = services.to("wallet")
    assert call.params["since"] == call.params["until"] == ["2026-03-01T00:00:00+01:00"]


@pytest.mark.parametrize(
    ("since", "code"),
    [
        ("2026-03-01T00:00:00", "timezone_aware"),  # no offset: a different instant in every time zone
        ("yesterday", "datetime_from_date_parsing"),
        ("0001-01-01T00:00:00Z", "out_of_range"),  # outside 2000..2099
        ("9999-12-31T23:59:59Z", "out_of_range"),
    ],
)
async def test_an_instant_without_offset_or_out_of_range_is_refused(
    driver: Driver, services: FakeServices, since: str, code: str
) -> None:
    answer = await _statement(driver, {"since": since}, expect=422)
    assert _field_errors(answer) == [("query.since", code)]
    assert services.to("wallet") == []


async def test_the_concessionaire_statement_checks_its_period_too(driver: Driver, services: FakeServices) -> None:
    room = await driver.concessionaire("room-x")
    period = {"since": "2026-03-02T00:00:00Z", "until": "2026-03-01T00:00:00Z"}
    answer = await driver.call(
        "GET", f"/api/v1/concessionaires/{room}/statement", token=await driver.admin_token(), params=period
    )
    assert answer.status_code == 422
    assert _field_errors(answer.json()) == [("query.since", "since_after_until")]


@pytest.mark.parametrize("day", ["2026-02-30", "0001-01-01", "9999-12-31", "1999-12-31", "2100-01-01", "today"])
async def test_a_rating_day_that_is_no_date_or_out_of_range_is_refused(
    driver: Driver, services: FakeServices, day: str
) -> None:
    mario = await driver.player_session("Mario")
    path = f"/api/v1/players/{mario['principal']['id']}/rating"
    answer = await driver.call("GET", path, token=mario["access_token"], params={"day": day}, expect=422)
    assert [field for field, _ in _field_errors(answer.json())] == ["query.day"]
    assert services.to("rating") == []


async def test_a_rating_day_in_range_is_relayed(driver: Driver, services: FakeServices) -> None:
    services.on("rating", "GET", r"/internal/v1/players/.*/rating", ok({"rating": "0"}))
    mario = await driver.player_session("Mario")
    path = f"/api/v1/players/{mario['principal']['id']}/rating"
    await driver.call("GET", path, token=mario["access_token"], params={"day": "2099-12-31"}, expect=200)
    assert services.to("rating")[0].params == {"day": ["2099-12-31"]}
