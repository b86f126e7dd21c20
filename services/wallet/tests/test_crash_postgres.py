"""The wallet process killed with SIGKILL in the middle of a burst of transfers, then restarted: every
transfer is complete or absent, and retrying every key completes the rest exactly once."""

from __future__ import annotations

import asyncio
import contextlib
import os
import signal
import socket
import subprocess
import sys
from collections.abc import AsyncIterator, Iterator
from contextlib import asynccontextmanager, contextmanager
from pathlib import Path

import httpx
import pytest
from sqlalchemy import func, select
from sqlalchemy.ext.asyncio import AsyncSession, create_async_engine
from wallet.adapters.orm import idempotency_keys, operations, transfers
from wallet.adapters.reconciliation import drifted_accounts, sums_per_currency
from wallet_test_client import WalletApi

pytestmark = [pytest.mark.postgres, pytest.mark.slow]

PLAYERS, BURST, KILL_AFTER = 8, 120, 30
PRIZE_PART, FEE = 900, 100
DEPOSIT = (BURST // PLAYERS + 5) * (PRIZE_PART + FEE)


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@contextmanager
def wallet_process(url: str, port: int, log: Path) -> Iterator[subprocess.Popen[bytes]]:
    """`platform serve wallet` as its own process. Started through the interpreter rather than `uv run`, so
    that the SIGKILL hits the server itself and not a wrapper process."""
    env = os.environ | {
        "WALLET_DATABASE_URL": url,
        "WALLET_PORT": str(port),
        "WALLET_BUS_URL": "memory://",
        "WALLET_LOG_LEVEL": "WARNING",
    }
    with log.open("ab") as output:
        process = subprocess.Popen(
            [sys.executable, "-m", "platform_runner.cli", "serve", "wallet"], env=env, stdout=output, stderr=output
        )
    try:
        yield process
    finally:
        if process.poll() is None:
            process.send_signal(signal.SIGTERM)
            try:
                process.wait(timeout=15)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()


async def wait_ready(http: httpx.AsyncClient, process: subprocess.Popen[bytes]) -> None:
    for _ in range(300):
        assert process.poll() is None, "the wallet process exited during start-up"
        try:
            if (await http.get("/readyz")).status_code == 200:
                return
        except httpx.TransportError:
            pass
        await asyncio.sleep(0.1)
    raise AssertionError("the wallet process did not become ready")


@asynccontextmanager
async def database(url: str) -> AsyncIterator[AsyncSession]:
    engine = create_async_engine(url)
    try:
        async with AsyncSession(engine) as session:
            yield session
    finally:
        await engine.dispose()


def buy_in(api: WalletApi, number: int) -> asyncio.Future[httpx.Response]:
    return asyncio.ensure_future(api.buy_in("t1", f"p{number % PLAYERS}", PRIZE_PART, FEE, key=f"burst-{number}"))


async def test_sigkill_mid_burst_leaves_each_transfer_whole_or_absent_and_retries_complete_it_once(
    postgres_url: str, tmp_path: Path
) -> None:
    port = free_port()
    log = tmp_path / "wallet.log"
    async with httpx.AsyncClient(base_url=f"http://127.0.0.1:{port}", timeout=30) as http:
        api = WalletApi(http)
        with wallet_process(postgres_url, port, log) as first:
            await wait_ready(http, first)
            for number in range(PLAYERS):
                await api.open_player(f"p{number}", "c1")
                assert (await api.deposit("c1", f"p{number}", DEPOSIT, key=f"deposit-{number}")).status_code == 201

            answered: dict[int, httpx.Response] = {}
            gate = asyncio.Semaphore(16)

            async def send(number: int) -> None:
                async with gate:
                    with contextlib.suppress(httpx.TransportError):  # the server died under this request
                        answered[number] = await buy_in(api, number)
                    if len(answered) >= KILL_AFTER and first.poll() is None:
                        first.send_signal(signal.SIGKILL)

            await asyncio.gather(*(send(number) for number in range(BURST)))
            assert first.wait(timeout=10) == -signal.SIGKILL
        assert KILL_AFTER <= len(answered) < BURST, "the kill did not land in the middle of the burst"
        assert all(response.status_code == 201 for response in answered.values())

        # Dead: what the database holds is whole operations only, each with its key and answer.
        async with database(postgres_url) as session:
            committed = await session.scalar(select(func.count()).where(operations.c.kind == "buy_in"))
            legs = await session.execute(
                select(transfers.c.operation_id, func.count())
                .join(operations, operations.c.id == transfers.c.operation_id)
                .where(operations.c.kind == "buy_in")
                .group_by(transfers.c.operation_id)
            )
            assert {count for _, count in legs} <= {2}
            keys = await session.scalar(
                select(func.count()).where(
                    idempotency_keys.c.key.like("burst-%"), idempotency_keys.c.status_code == 201
                )
            )
            assert committed is not None and keys == committed and len(answered) <= committed < BURST
            assert all(total == 0 for _, _, total in await sums_per_currency(session))
            assert await drifted_accounts(session) == []

        with wallet_process(postgres_url, port, log) as second:
            await wait_ready(http, second)
            retried = await asyncio.gather(*(buy_in(api, number) for number in range(BURST)))
            assert all(response.status_code == 201 for response in retried), [r.text for r in retried][:3]
            for number, response in answered.items():  # answered before the crash: the same answer again
                assert retried[number].json() == response.json()
                assert retried[number].headers["idempotent-replayed"] == "true"

            assert len({response.json()["operation_id"] for response in retried}) == BURST
            expected = DEPOSIT - (BURST // PLAYERS) * (PRIZE_PART + FEE)
            assert [await api.balance(f"p{number}") for number in range(PLAYERS)] == [expected] * PLAYERS
            assert await api.escrow("t1") == BURST * PRIZE_PART
            assert (await api.reconciliation())["ok"] is True
        async with database(postgres_url) as session:
            assert await session.scalar(select(func.count()).where(operations.c.kind == "buy_in")) == BURST
