"""Eligibility for restricted and invitation-only tournaments (P-11.7), with sanctions (P-12.5)."""

from __future__ import annotations

from typing import Any

import pytest
from rating_service_support import YESTERDAY, Service, admin, finished


async def ask(service: Service, **body: Any) -> dict[str, Any]:
    response = await service.http.post("/internal/v1/eligibility", json=body)
    assert response.status_code == 200, response.text
    return dict(response.json())


@pytest.fixture
async def ranked(service: Service) -> Service:
    """Five players ranked on the last closed day: a GRUPPO UNO … e CONDIZIONATA."""
    await service.publish(finished("t1", ["a", "b", "c", "d", "e"]))
    await service.close_day(YESTERDAY)
    return service


async def test_p11_7_a_tournament_restricted_to_tiers_admits_only_them(ranked: Service) -> None:
    policy = {"allowed_tiers": ["GRUPPO_UNO", "GRUPPO_DUE"]}
    assert await ask(ranked, player_id="b", **policy) == {"eligible": True, "reason": "eligible", "tier": "GRUPPO_DUE"}
    assert await ask(ranked, player_id="c", **policy) == {
        "eligible": False,
        "reason": "tier_not_allowed",
        "tier": "GRUPPO_TRE",
    }
    assert (await ask(ranked, player_id="newcomer", **policy))["tier"] == "ESORDIENTE"


async def test_p11_7_a_tournament_closed_to_tiers_refuses_only_them(ranked: Service) -> None:
    policy = {"excluded_tiers": ["GRUPPO_UNO"]}
    assert (await ask(ranked, player_id="a", **policy))["reason"] == "tier_excluded"
    assert (await ask(ranked, player_id="e", **policy))["eligible"] is True


async def test_p11_7_an_invitation_only_tournament_admits_invited_players(ranked: Service) -> None:
    assert (await ask(ranked, player_id="a", invitation_only=True))["reason"] == "not_invited"
    assert (await ask(ranked, player_id="a", invitation_only=True, invited=True))["eligible"] is True


async def test_p11_7_a_policy_both_restricting_and_excluding_tiers_is_refused(ranked: Service) -> None:
    response = await ranked.http.post(
        "/internal/v1/eligibility",
        json={"player_id": "a", "allowed_tiers": ["GRUPPO_UNO"], "excluded_tiers": ["LISTED"]},
    )
    assert (response.status_code, response.json()["code"]) == (422, "rating.invalid_access_policy")


async def decide(service: Service, offender: str, **decision: Any) -> dict[str, Any]:
    report = await service.http.post(
        "/internal/v1/reports", json={"offender_id": offender, "offence": "offensive_language"}, headers=admin()
    )
    body = {"report_ids": [report.json()["report_id"]], "offence": "offensive_language", "gravity": "serious"}
    response = await service.http.post("/internal/v1/sanctions", json=body | decision, headers=admin())
    assert response.status_code == 201, response.text
    return dict(response.json())


async def test_p12_5_a_banned_player_is_not_eligible(ranked: Service) -> None:
    await ranked.register("a")
    await decide(ranked, "a", kind="permanent_ban", context="after_tournament")
    assert await ask(ranked, player_id="a") == {"eligible": False, "reason": "banned", "tier": "GRUPPO_UNO"}


async def test_p12_5_a_player_disqualified_from_a_tournament_cannot_enter_it_again(ranked: Service) -> None:
    await ranked.register("a")
    await decide(ranked, "a", kind="tournament_disqualification", context="during_tournament", tournament_id="t9")
    assert (await ask(ranked, player_id="a", tournament_id="t9"))["reason"] == "disqualified"
    assert (await ask(ranked, player_id="a", tournament_id="t10"))["eligible"] is True
