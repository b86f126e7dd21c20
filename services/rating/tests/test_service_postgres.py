"""The rating service on the real PostgreSQL: results exactly once, tiers and leaderboard, eligibility,
a sanction and its expiry (P-11, P-12)."""

from __future__ import annotations

from datetime import timedelta

import pytest
from rating_service_support import YESTERDAY, admin, finished, player, running_service

pytestmark = pytest.mark.postgres


async def test_p11_p12_the_service_on_postgresql(postgres_url: str) -> None:
    async with running_service(postgres_url) as service:
        for n, player_id in enumerate(("alice", "bob", "carol", "dave", "erin"), start=1):
            await service.register(player_id, f"Nick{n}")
        result = finished("t1", ["alice", "bob", "carol", "dave", "erin"], pool_cents=10_000)
        await service.publish(result)
        await service.publish(result)  # a second message with the same result: applied once (P-11.2)
        dave = await service.http.get("/internal/v1/players/dave/rating", params={"day": "2025-03-01"})
        assert (dave.json()["rating"], len(dave.json()["history"])) == ("5.000000", 1)  # P-11.1

        assert (await service.close_day(YESTERDAY))["changes"] == 5
        assert (await service.close_day(YESTERDAY))["changes"] == 0  # idempotent
        board = (await service.http.get("/v1/leaderboard", params={"size": 2, "page": 2})).json()
        assert [(e["rank"], e["nickname"], e["tier"]) for e in board["entries"]] == [
            (3, "Nick3", "GRUPPO_TRE"),
            (4, "Nick4", "LISTED"),
        ]
        eligible = await service.http.post(
            "/internal/v1/eligibility", json={"player_id": "erin", "excluded_tiers": ["CONDIZIONATA"]}
        )
        assert eligible.json() == {"eligible": False, "reason": "tier_excluded", "tier": "CONDIZIONATA"}

        filed = await service.http.post(
            "/internal/v1/reports", json={"offender_id": "erin", "offence": "offensive_language"}, headers=player("bob")
        )
        decided = await service.http.post(
            "/internal/v1/sanctions",
            json={
                "report_ids": [filed.json()["report_id"]],
                "kind": "temporary_ban",
                "context": "after_tournament",
                "offence": "offensive_language",
                "gravity": "very_serious",
                "duration": "P2D",
                "ban_scope": "room_and_network",
            },
            headers=admin(),
        )
        assert decided.status_code == 201, decided.text
        restrictions = await service.http.get("/internal/v1/players/erin/restrictions")
        assert restrictions.json()["can_log_in"] is False
        service.clock.advance(timedelta(days=2))
        assert (await service.http.post("/internal/v1/jobs/sanction-expiry")).json() == {"lifted": 1}
        assert [e.reason for e in await service.published("rating.sanction.lifted")] == ["expired"]
        assert len(await service.published("rating.tier.changed")) == 5
