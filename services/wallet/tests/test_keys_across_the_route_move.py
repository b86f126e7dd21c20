"""The wallet's routes moved from `/v1` to `/internal/v1` (issue 19). A money move sent before the move whose
answer was lost is sent again after it, with the same Idempotency-Key and body, under the new path: the caller
learns the first outcome, and the money moves once."""

from __future__ import annotations

from typing import Any

from wallet.api.schemas import CashIn
from wallet.domain.idempotency import fingerprint
from wallet_test_client import running_wallet


async def test_a_key_recorded_under_the_old_prefix_replays_its_first_answer_under_the_new_one(sqlite_url: str) -> None:
    async with running_wallet(sqlite_url) as (app, api):
        wallet = app.state.services
        await api.open_player("p1", "c1")
        body = {"currency": "EUR", "amount": 500}
        first = (await api.deposit("c1", "p1", 500, key="k-new")).json()

        async def never(_: Any) -> dict[str, object]:
            raise AssertionError("a replayed key carries nothing out")

        # What the wallet recorded before the move: the same request's fingerprint, under the `/v1` path.
        before_the_move = fingerprint("POST", "/v1/partner/players/p1/deposits", CashIn(**body).model_dump(mode="json"))
        replayed = await wallet.executor.run("partner:c1", "k-new", before_the_move, 201, never)
        assert (replayed.replayed, replayed.body) == (True, first)

        again = await api.deposit("c1", "p1", 500, key="k-new")
        assert (again.status_code, again.headers["Idempotent-Replayed"], again.json()) == (201, "true", first)
        assert await api.balance("p1") == 500


async def test_a_caller_not_yet_upgraded_is_served_under_the_old_prefix_and_its_key_is_the_same_request(
    sqlite_url: str,
) -> None:
    """During a rolling deploy an old director still calls `/v1/...`: served, not answered 404 (which it would
    record as a refused money step), and one money move whichever path a retry takes."""
    async with running_wallet(sqlite_url) as (_, api):
        await api.open_player("p1", "c1")
        old = await api.command(
            "/v1/partner/players/p1/deposits", {"currency": "EUR", "amount": 700}, key="k-old", concessionaire="c1"
        )
        new = await api.deposit("c1", "p1", 700, key="k-old")
        assert old.status_code == 201 and "Idempotent-Replayed" not in old.headers
        assert (new.status_code, new.headers["Idempotent-Replayed"], new.json()) == (201, "true", old.json())
        assert await api.balance("p1") == 700
