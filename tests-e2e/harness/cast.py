"""The people of a run: the network administrator (created by the gateway at start-up) and the players, who sign
up with a concessionaire of the run's own and have money paid in at its cashier (the administrator acting for it)
— money like any other in the ledger: a deposit from the concessionaire's cash account, booked before the
deposit answers. Not the demo concessionaire: outside standalone mode its players play with play money, so they
may enter only its own tournaments and bet nowhere (the gateway's `demo_scope`)."""

from __future__ import annotations

import asyncio
from collections.abc import Sequence

import httpx

from harness.client import ApiError, Credentials, Session, new_key

CONCESSIONAIRE = "e2e-room"
CURRENCY = "EUR"
DEPOSIT_CENTS = 10_000
PASSWORD = "e2e-player-password"
BIRTH_DATE = "1990-01-01"
STAFF = Credentials("admin@e2e.example", "e2e-admin-password-0123", staff=True)


async def staff_session(http: httpx.AsyncClient, gateway: str) -> Session:
    staff = Session(http, gateway)
    await staff.log_in(STAFF)
    return staff


async def sign_up(staff: Session, nicknames: Sequence[str], *, parallel: int = 8) -> list[Session]:
    """The run's concessionaire opened, its players signed up, logged in and paid in, in the order of `nicknames`."""
    await staff.call("POST", "/concessionaires", json={"code": CONCESSIONAIRE, "name": "End-to-end room"})
    gate = asyncio.Semaphore(parallel)

    async def one(nickname: str) -> Session:
        async with gate:
            session = Session(staff.http, staff.base_url)
            await session.sign_up(nickname, PASSWORD, concessionaire=CONCESSIONAIRE, birth_date=BIRTH_DATE)
            body = {"currency": CURRENCY, "amount": DEPOSIT_CENTS, "reference": f"e2e/{nickname}"}
            await staff.call("POST", f"/players/{session.player_id}/deposits", json=body, key=new_key())
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
