"""Concurrent bet intake racing the close, against the real PostgreSQL (both the totalizator's and the wallet's
databases): no coupon is accepted after closing, and the wallet is charged exactly for the accepted ones (T-2.5)."""

from __future__ import annotations

import asyncio
from collections import Counter
from typing import Any

import pytest
from platform_kit.testing import create_database, drop_database, eventually
from sqlalchemy import func, select
from totalizator.adapters import coupons as coupon_store
from totalizator.adapters.orm import coupons
from totalizator_harness import CLOSE_AT, Platform, another_instance, picks, running

pytestmark = pytest.mark.postgres

PLAYERS, COUPONS_EACH, STAKE, DEPOSIT = 30, 5, 100, 1_000


async def coupon_rows(platform: Platform) -> Counter[str]:
    async with platform.runtime.db.transaction() as session:
        rows = await session.execute(select(coupons.c.status, func.count()).group_by(coupons.c.status))
        return Counter({status: count for status, count in rows.all()})


async def test_t2_5_concurrent_coupons_racing_the_close_never_get_in_after_it(
    postgres_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Widen the race: every coupon dawdles between its checks (draw open, before the closing time) and its
    # insert, so the close comes while many are in between. Without the draw-row lock they would get in after.
    insert = coupon_store.insert_pending

    async def slow_insert(*args: Any, **kwargs: Any) -> Any:
        await asyncio.sleep(0.1)
        return await insert(*args, **kwargs)

    monkeypatch.setattr(coupon_store, "insert_pending", slow_insert)
    wallet_url = await create_database()
    try:
        async with running(postgres_url, wallet_url) as platform, another_instance(platform) as other:
            await platform.open_draw()
            players = [f"p{n}" for n in range(PLAYERS)]
            await asyncio.gather(*(platform.fund(player, DEPOSIT) for player in players))

            async def place(n: int):  # type: ignore[no-untyped-def]
                return await platform.coupon(players[n % PLAYERS], picks("1:0"), STAKE)

            first_wave = 2 * PLAYERS

            async def close_midway() -> tuple[int | None, list[Any]]:
                async def a_good_part_got_in() -> bool:
                    return sum((await coupon_rows(platform)).values()) >= PLAYERS

                await eventually(a_good_part_got_in, interval=0.005)
                platform.clock.set(CLOSE_AT)
                # The rest come as the close does: however loaded the machine, some arrive too late (a race in
                # which every coupon got in first would prove nothing).
                late = [asyncio.create_task(place(n)) for n in range(first_wave, PLAYERS * COUPONS_EACH)]
                taken = await other.clock.close("2030-23")  # the coupons it saw when closing
                return taken, list(await asyncio.gather(*late))

            *early, (taken_at_close, late) = await asyncio.gather(
                *(place(n) for n in range(first_wave)), close_midway()
            )
            responses = [*early, *late]
            await platform.services.clock.tick()  # any stake still unconfirmed, then the final count

            statuses = Counter(r.status_code for r in responses)
            assert set(statuses) <= {201, 409}, statuses
            assert {r.json()["code"] for r in responses if r.status_code == 409} == {"betting_closed"}
            accepted = [r.json() for r in responses if r.status_code == 201]
            assert 0 < len(accepted) < PLAYERS * COUPONS_EACH  # the race really happened
            # Nothing got in after the close: the close saw every coupon that was ever accepted ...
            assert taken_at_close == len(accepted)
            assert await coupon_rows(platform) == Counter({"accepted": len(accepted)})
            # ... each was accepted before the closing time, and the final count is theirs.
            draw = (await platform.staff("GET", "/draws/2030-23")).json()
            assert all(c["accepted_at"] < draw["closed_at"] for c in accepted)
            assert all(c["accepted_at"] < CLOSE_AT.isoformat().replace("+00:00", "Z") for c in accepted)
            assert draw["final"]["coupons"] == len(accepted) and draw["pending_coupons"] == 0
            # The wallet took exactly the accepted stakes.
            assert await platform.pools() == {"USD": STAKE * len(accepted)}
            per_player = Counter(c["player_id"] for c in accepted)
            for player in players:
                assert await platform.balance(player) == DEPOSIT - STAKE * per_player[player]
            assert await platform.reconciled()
    finally:
        await drop_database(wallet_url)
