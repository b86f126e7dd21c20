"""The wallet's internal API refuses control characters at the edge (the kit's middleware), on SQLite and
PostgreSQL: a NUL in a `reference` used to be stored on SQLite and to fail as a 500 on PostgreSQL."""

from __future__ import annotations

import pytest
from wallet_test_client import WalletApi, running_wallet

BACKENDS = ["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)]


@pytest.fixture(params=BACKENDS)
def backend_url(request: pytest.FixtureRequest) -> str:
    url: str = request.getfixturevalue("sqlite_url" if request.param == "sqlite" else "postgres_url")
    return url


async def statement_references(api: WalletApi) -> list[str | None]:
    answer = await api.get("/internal/v1/partner/players/p1/statement", concessionaire="c1")
    assert answer.status_code == 200, answer.text
    return [line.get("reference") for line in answer.json()["items"]]


async def test_a_nul_in_a_deposit_reference_is_refused_and_nothing_is_written(backend_url: str) -> None:
    async with running_wallet(backend_url) as (_, api):
        await api.open_player("p1", "c1")
        refused = await api.command(
            "/internal/v1/partner/players/p1/deposits",
            {"currency": "EUR", "amount": 500, "reference": "cashier\u0000desk"},
            concessionaire="c1",
        )
        assert refused.status_code == 422, refused.text
        assert refused.headers["content-type"] == "application/problem+json"
        assert refused.json()["code"] == "control_characters"
        assert [e["field"] for e in refused.json()["errors"]] == ["body.reference"]
        assert await api.balance("p1") == 0
        assert await statement_references(api) == []

        # Free text keeps its line breaks and tabs: only the other control characters are refused.
        accepted = await api.command(
            "/internal/v1/partner/players/p1/deposits",
            {"currency": "EUR", "amount": 500, "reference": "desk 3\tshift\r\nlate"},
            concessionaire="c1",
        )
        assert accepted.status_code == 201, accepted.text
        assert await statement_references(api) == ["desk 3\tshift\r\nlate"]


async def test_a_draws_payouts_may_exceed_the_default_body_limit(sqlite_url: str) -> None:
    """DrawPaymentsIn admits 100 000 payments, several MiB: the wallet's /internal/v1/draws family has a larger limit
    than the kit's default 1 MiB, which every other route keeps. (The amounts are invalid on purpose: the body
    reaching validation is what this checks, not the payments.)"""
    payments = [{"player_id": f"{n:032x}", "amount": -1} for n in range(20_000)]
    async with running_wallet(sqlite_url) as (_, api):
        large = await api.command("/internal/v1/draws/d1/payouts", {"currency": "EUR", "payments": payments})
        elsewhere = await api.command("/internal/v1/holds", {"padding": "x" * (1024 * 1024)})
    assert len(large.request.content) > 1024 * 1024
    assert (large.status_code, large.json()["code"]) == (422, "validation_failed")
    assert (elsewhere.status_code, elsewhere.json()["code"]) == (413, "request_too_large")
