"""The people of a run: the network administrator (created by the gateway at start-up) and the players, who sign
up with the demo concessionaire and are paid its welcome credit — money like any other in the ledger (a deposit
from the concessionaire's cash account)."""

from __future__ import annotations

import asyncio
from collections.abc import Sequence

import httpx

from harness.client import ApiError, Credentials, Session

CONCESSIONAIRE = "demo"
CURRENCY = "EUR"
WELCOME_CREDIT_CENTS = 10_000
PASSWORD = "e2e-player-password"
BIRTH_DATE = "1990-01-01"
STAFF = Credentials("admin@e2e.example", "e2e-admin-password-0123", staff=True)
CREDIT_WAIT_SECONDS = 60.0


async def staff_session(http: httpx.AsyncClient, gateway: str) -> Session:
    staff = Session(http, gateway)
    await staff.log_in(STAFF)
    return staff


async def sign_up(
    http: httpx.AsyncClient, gateway: str, nicknames: Sequence[str], *, parallel: int = 8
) -> list[Session]:
    """Players signed up, logged in and credited, in the order of `nicknames`."""
    gate = asyncio.Semaphore(parallel)

    async def one(nickname: str) -> Session:
        async with gate:
            session = Session(http, gateway)
            await session.sign_up(nickname, PASSWORD, concessionaire=CONCESSIONAIRE, birth_date=BIRTH_DATE)
            await credited(session)
            return session

    return list(await asyncio.gather(*(one(nickname) for nickname in nicknames)))


async def balance(session: Session) -> int:
    """The player's balance in the run's currency (0 before the account exists)."""
    try:
        found = await session.call("GET", f"/players/{session.player_id}/accounts")
    except ApiError as error:
        if error.status == 404:
            return 0
        raise
    return sum(a["balance"] for a in found.get("accounts", []) if a["currency"] == CURRENCY)


async def credited(session: Session) -> None:
    loop = asyncio.get_running_loop()
    deadline = loop.time() + CREDIT_WAIT_SECONDS
    while await balance(session) < WELCOME_CREDIT_CENTS:
        if loop.time() > deadline:
            raise AssertionError(f"{session.credentials}: no welcome credit after {CREDIT_WAIT_SECONDS:.0f} s")
        await asyncio.sleep(0.25)
