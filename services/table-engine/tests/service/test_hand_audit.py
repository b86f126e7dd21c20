"""The audit view (the recorded deck and every hole card, P-1.3) opens once the hand has ended: while it is
played those cards are its players' alone (P-1.4), staff included. The hand's owner — its table and
tournament — is readable without any card, so that the gateway can check who may audit it first."""

from __future__ import annotations

from pathlib import Path

from table_harness import running


async def test_p1_4_the_audit_is_refused_until_the_hand_has_ended(tmp_path: Path) -> None:
    async with running(tmp_path / "audit.db") as service:
        await service.open_table("audit-1", tournament_id="t-audit")
        service.deck.deal(["AhAd", "KsKd", "7c2d"])
        hand_id = await service.start_hand("audit-1")

        live = await service.get(f"/internal/v1/hands/{hand_id}/audit")
        assert (live.status_code, live.json()["code"]) == (409, "hand_in_progress")
        assert "Ah" not in live.text and "deck" not in live.json()

        await service.act("audit-1", hand_id, "p1", "fold")
        await service.act("audit-1", hand_id, "p2", "fold")
        ended = await service.get(f"/internal/v1/hands/{hand_id}/audit")
        assert ended.status_code == 200
        assert ended.json()["deck"][:6] == ["Ah", "Ks", "7c", "Ad", "Kd", "2d"]


async def test_a_hands_owner_is_known_without_its_cards(tmp_path: Path) -> None:
    async with running(tmp_path / "owner.db") as service:
        await service.open_table("audit-2", tournament_id="t-owner")
        hand_id = await service.start_hand("audit-2")

        owner = await service.get(f"/internal/v1/hands/{hand_id}")
        assert owner.status_code == 200
        assert owner.json() == {
            "hand_id": hand_id,
            "table_id": "audit-2",
            "tournament_id": "t-owner",
            "status": "in_progress",
        }
        missing = await service.get("/internal/v1/hands/nope")
        assert (missing.status_code, missing.json()["code"]) == (404, "hand_not_found")
        assert (await service.http.get(f"/internal/v1/hands/{hand_id}")).status_code == 401
