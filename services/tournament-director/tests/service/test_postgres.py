"""The director on the real PostgreSQL (row locks, timezone-aware instants, 64-bit keys)."""

from __future__ import annotations

from pathlib import Path

import pytest
from director_harness import running
from platform_kit.events import tournament as events

PRICE = {"prize_part_cents": 900, "fee_cents": 100}


@pytest.mark.postgres
async def test_p8_5_heads_up_sit_and_go_and_an_unregistration_on_postgresql(tmp_path: Path, postgres_url: str) -> None:
    async with running(tmp_path, director_database=postgres_url) as platform:
        t = (await platform.create({"template": "heads_up_sit_and_go", "name": "HU", "buy_in": PRICE}))["tournament_id"]
        for player in ("ann", "bob", "cid"):
            await platform.fund(player, 5_000)
        await platform.register(t, "cid")
        assert (await platform.unregister(t, "cid")).json()["refunded_cents"] == 1_000
        for player in ("ann", "bob"):
            assert (await platform.register(t, player)).status_code == 201

        finished = await platform.settled(t)

        assert finished["status"] == "finished"
        [result] = platform.events(events.TournamentFinished)
        assert [ranked.prize_cents for ranked in result.ranking] == [1_800, 0]
        assert sorted([await platform.balance("ann"), await platform.balance("bob")]) == [4_000, 5_800]
        assert await platform.balance("cid") == 5_000
        assert await platform.escrow(t) == 0
