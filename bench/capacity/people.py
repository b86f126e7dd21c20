"""The players of a capacity run: they sign up with a concessionaire of the run's own and have money paid in at
its cashier (the network administrator acting for it: `POST /players/{id}/deposits`), which the wallet books
before it answers — nothing to wait for.

Not the demo concessionaire: outside standalone mode its players play with play money, so they may join only
its own tournaments and bet nowhere (the gateway's `demo_scope`)."""

from __future__ import annotations

import time

from harness.cast import BIRTH_DATE, CURRENCY, PASSWORD
from harness.client import Session, new_key

from capacity.metrics import Meter

CONCESSIONAIRE = "capacity-bench"
#: What each player is paid in: 100 buy-ins of the e2e tournaments, or a few hundred coupons.
DEPOSIT_CENTS = 50_000


async def open_concessionaire(staff: Session) -> None:
    await staff.call("POST", "/concessionaires", json={"code": CONCESSIONAIRE, "name": "Capacity benchmark"})


async def player(session: Session, cashier: Session, nickname: str, meter: Meter) -> None:
    """`session` signed up as `nickname` and paid in its money by `cashier`."""
    started = time.monotonic()
    await session.sign_up(nickname, PASSWORD, concessionaire=CONCESSIONAIRE, birth_date=BIRTH_DATE)
    signed_up = time.monotonic()
    meter.sample("sign-up", signed_up - started, signed_up)
    body = {"currency": CURRENCY, "amount": DEPOSIT_CENTS, "reference": f"capacity/{nickname}"}
    await cashier.call("POST", f"/players/{session.player_id}/deposits", json=body, key=new_key())
    meter.sample("deposit", time.monotonic() - signed_up, time.monotonic())
