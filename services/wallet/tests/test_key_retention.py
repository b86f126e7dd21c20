"""Idempotency-key retention on PostgreSQL and SQLite: answered keys older than the retention window are purged
in bounded batches; recent keys and claims not yet answered stay, and a purged key executes as a new command."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from datetime import UTC, datetime, timedelta

import pytest
from platform_kit.clock import FrozenClock
from pydantic import ValidationError
from sqlalchemy import select
from wallet.adapters import idempotency
from wallet.adapters.orm import idempotency_keys
from wallet.bootstrap import Services
from wallet.settings import Settings
from wallet_test_client import TOKEN, WalletApi, running_wallet

LIMITS = "/internal/v1/players/p1/deposit-limits"

T0 = datetime(2025, 3, 1, 12, tzinfo=UTC)
RETENTION = timedelta(hours=720)  # the default of PLATFORM_IDEMPOTENCY_RETENTION_HOURS
PARTNER = "partner:c1"  # the scope of concessionaire c1's partner calls


@pytest.fixture
def clock() -> FrozenClock:
    return FrozenClock(T0)


@pytest.fixture
async def running(database_url: str, clock: FrozenClock) -> AsyncIterator[tuple[Services, WalletApi]]:
    """The wallet's use cases (to run the purge) and its REST API, over one database."""
    async with running_wallet(database_url, clock=clock) as (app, api):
        yield app.state.services, api


async def stored_keys(wallet: Services) -> set[str]:
    async with wallet.runtime.db.sessions() as session:
        return set((await session.scalars(select(idempotency_keys.c.key))).all())


async def deposit(api: WalletApi, key: str, amount: int = 100) -> None:
    assert (await api.deposit("c1", "p1", amount, key=key)).status_code == 201


async def test_old_answered_keys_are_purged_and_recent_and_unanswered_ones_kept(
    running: tuple[Services, WalletApi], clock: FrozenClock
) -> None:
    wallet, api = running
    await api.open_player("p1", "c1")
    for key in ("old-1", "old-2"):
        await deposit(api, key)
    refused = await api.command(
        "/internal/v1/partner/players/p1/withdrawals",
        {"currency": "EUR", "amount": 10**6},
        key="old-refusal",
        concessionaire="c1",
    )
    assert refused.status_code == 409  # a refusal is an answer too: purged like the others
    async with wallet.runtime.db.transaction() as session:  # a claim without its answer: never purged
        assert await idempotency.claim(session, PARTNER, "unanswered", "f" * 64, T0)
    clock.advance(timedelta(hours=1))
    await deposit(api, "boundary")  # exactly the retention old at the purge: still inside the guarantee
    clock.advance(timedelta(hours=1))
    await deposit(api, "recent")

    clock.set(T0 + timedelta(hours=1) + RETENTION)
    assert await wallet.key_retention.purge_expired() == 4  # the player's opening, two deposits, the refusal

    assert await stored_keys(wallet) == {"unanswered", "boundary", "recent"}
    replay = await api.deposit("c1", "p1", 100, key="recent")
    assert replay.status_code == 201 and replay.headers["idempotent-replayed"] == "true"
    assert "wallet_idempotency_keys_purged_total 4.0" in (await api.http.get("/metrics")).text


async def test_a_purged_key_executes_as_a_new_command(running: tuple[Services, WalletApi], clock: FrozenClock) -> None:
    """The expected trade-off of the retention: past the window the wallet no longer knows the key, so the same
    request is a new command — clients must not retry after the retention window."""
    wallet, api = running
    await api.open_player("p1", "c1")
    first = await api.deposit("c1", "p1", 100, key="deposit-1")
    clock.advance(RETENTION + timedelta(seconds=1))
    assert await wallet.key_retention.purge_expired() == 2

    again = await api.deposit("c1", "p1", 100, key="deposit-1")

    assert again.status_code == 201 and "idempotent-replayed" not in again.headers
    assert again.json()["operation_id"] != first.json()["operation_id"]
    assert await api.balance("p1") == 200
    replay = await api.deposit("c1", "p1", 100, key="deposit-1")  # the key is remembered afresh
    assert replay.headers["idempotent-replayed"] == "true" and replay.json() == again.json()


async def test_the_purge_deletes_in_bounded_batches_and_is_idempotent(
    running: tuple[Services, WalletApi], clock: FrozenClock
) -> None:
    wallet, api = running
    await api.open_player("p1", "c1")
    for number in range(4):
        clock.advance(timedelta(minutes=1))
        await deposit(api, f"old-{number}")
    clock.advance(RETENTION + timedelta(minutes=1))  # past the retention of all five keys

    async with wallet.runtime.db.transaction() as session:  # one statement deletes one batch, the oldest first
        assert await wallet.key_retention.purge_batch(session, clock.now() - RETENTION, batch=2) == 2
    assert await stored_keys(wallet) == {"old-1", "old-2", "old-3"}

    assert await wallet.key_retention.purge_expired(batch=2) == 3  # a full batch, then a short one ends the run
    assert await stored_keys(wallet) == set()
    assert await wallet.key_retention.purge_expired(batch=2) == 0
    assert "wallet_idempotency_keys_purged_total 3.0" in (await api.http.get("/metrics")).text


@pytest.mark.postgres
async def test_a_claim_in_progress_is_neither_purged_nor_waited_for(postgres_url: str) -> None:
    clock = FrozenClock(T0)
    async with running_wallet(postgres_url, clock=clock) as (app, _):
        wallet: Services = app.state.services
        async with wallet.runtime.db.transaction() as session:
            assert await idempotency.claim(session, PARTNER, "in-progress", "f" * 64, T0)
            clock.advance(RETENTION + timedelta(hours=1))
            # The purge runs beside the open transaction: it does not see the claim and does not wait for it.
            assert await asyncio.wait_for(wallet.key_retention.purge_expired(), timeout=10) == 0
            await session.execute(idempotency.ANSWER, idempotency.answer(PARTNER, "in-progress", 201, {"answer": 1}))
        assert await stored_keys(wallet) == {"in-progress"}


def test_the_retention_is_never_shorter_than_a_day() -> None:
    with pytest.raises(ValidationError):
        Settings(idempotency_retention_hours=23)
    assert Settings(idempotency_retention_hours=24).idempotency_retention_hours == 24


@pytest.mark.parametrize("alone", [False, True], ids=["in a group commit", "alone"])
async def test_a_key_purged_between_its_claim_and_its_replay_executes_as_new(
    running: tuple[Services, WalletApi], monkeypatch: pytest.MonkeyPatch, alone: bool
) -> None:
    """The race of a retry with the purge on PostgreSQL: the key is found taken, then deleted and committed by
    the purge before its answer is read. The command then runs as a new one (as after the purge), not a server
    error — in a group commit's batch (service/posting_batches.py) and alone (a deposit under a deposit limit
    runs alone). (SQLite's writers are serial: the purge cannot come in between there.)"""
    wallet, api = running
    if wallet.runtime.db.is_sqlite:
        pytest.skip("SQLite runs one writer at a time: the purge cannot come between a claim and its replay")
    await api.open_player("p1", "c1")
    if alone:
        limits = {"currency": "EUR", "changed_by": "player:p1", "day": 1_000_000}
        headers = {"X-Internal-Token": TOKEN}
        assert (await api.http.put(LIMITS, json=limits, headers=headers)).status_code == 200
    await deposit(api, "racing")
    purged_once = False

    async def purge(key: str) -> None:
        nonlocal purged_once
        if key == "racing" and not purged_once:
            purged_once = True
            async with wallet.runtime.db.transaction() as purge:  # the purge, committed meanwhile
                await purge.execute(idempotency_keys.delete().where(idempotency_keys.c.key == key))

    read, read_many = idempotency.stored, idempotency.stored_many

    async def purged_meanwhile(session, scope, key):  # type: ignore[no-untyped-def]
        await purge(key)
        return await read(session, scope, key)

    async def purged_meanwhile_many(session, claims):  # type: ignore[no-untyped-def]
        for _, key in claims:
            await purge(key)
        return await read_many(session, claims)

    monkeypatch.setattr(idempotency, "stored", purged_meanwhile)
    monkeypatch.setattr(idempotency, "stored_many", purged_meanwhile_many)
    again = await api.deposit("c1", "p1", 100, key="racing")

    assert again.status_code == 201 and again.headers.get("idempotent-replayed") != "true"
    assert purged_once and await api.balance("p1") == 200
