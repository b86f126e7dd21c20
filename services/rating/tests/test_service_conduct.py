"""Reports, staff decisions, appeals and expiry through the running service (P-12.1 - P-12.5)."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from platform_kit.testing import eventually
from rating_service_support import NOW, Service, admin, operator, player, running_service

Headers = dict[str, str]


@pytest.fixture
async def room(service: Service) -> Service:
    """Players of two concessionaires: `bad` and `victim` in room-a, `other` in room-b."""
    await service.register("bad", "BadBoy", "room-a")
    await service.register("victim", "Victim", "room-a")
    await service.register("other", "Other", "room-b")
    return service


async def report(service: Service, headers: Headers, offender: str = "bad", **changes: Any) -> dict[str, Any]:
    body = {"offender_id": offender, "offence": "offensive_language", "tournament_id": "t-live"} | changes
    response = await service.http.post("/internal/v1/reports", json=body, headers=headers)
    assert response.status_code == 201, response.text
    return dict(response.json())


def decision(report_ids: list[str], kind: str = "written_warning", **changes: Any) -> dict[str, Any]:
    return {
        "report_ids": report_ids,
        "kind": kind,
        "context": "during_tournament",
        "offence": "offensive_language",
        "gravity": "serious",
        "tournament_id": "t-live",
        "reason": "insults at the table",
    } | changes


async def decide(service: Service, body: dict[str, Any], headers: Headers | None = None) -> dict[str, Any]:
    response = await service.http.post("/internal/v1/sanctions", json=body, headers=headers or operator())
    assert response.status_code == 201, response.text
    return dict(response.json())


async def restrictions(service: Service, player_id: str = "bad") -> dict[str, Any]:
    return dict((await service.http.get(f"/internal/v1/players/{player_id}/restrictions")).json())


async def test_p12_2_a_player_report_and_the_staff_decision_publish_the_sanction(room: Service) -> None:
    filed = await report(room, player("victim"), description="called me names")
    assert (filed["detection"], filed["reporter_id"], filed["status"]) == ("player_report", "victim", "open")
    body = decision([filed["report_id"]], "temporary_ban", duration="P7D", ban_scope="network", entries_forfeit=True)
    sanction = await decide(room, body)
    assert (sanction["player_id"], sanction["decided_by"], sanction["room_id"]) == ("bad", "op-1", "room-a")
    assert sanction["ends_at"] == (NOW + timedelta(days=7)).isoformat().replace("+00:00", "Z")
    [event] = await room.published("rating.sanction.decided")
    assert (event.sanction_id, event.player_id, event.kind, event.ban_scope) == (
        sanction["sanction_id"],
        "bad",
        "temporary_ban",
        "network",
    )
    assert (event.starts_at, event.ends_at) == (NOW.isoformat(), (NOW + timedelta(days=7)).isoformat())
    assert (event.tournament_id, event.forfeit_entries, event.reason) == ("t-live", True, "insults at the table")
    reports = await room.http.get("/internal/v1/reports", params={"offender_id": "bad"}, headers=admin())
    assert [r["status"] for r in reports.json()] == ["sanctioned"]


async def test_p12_5_a_ban_stops_log_in_registration_and_chat(room: Service) -> None:
    filed = await report(room, player("victim"))
    sanction = await decide(room, decision([filed["report_id"]], "permanent_ban", context="after_tournament"))
    assert await restrictions(room) == {
        "player_id": "bad",
        "room_id": "room-a",
        "can_log_in": False,
        "can_register": False,
        "can_chat": False,
        "sanctions": [{"sanction_id": sanction["sanction_id"], "kind": "permanent_ban", "ends_at": None}],
    }
    assert (await restrictions(room, "victim"))["can_log_in"] is True


async def test_p12_3_a_chat_ban_only_stops_chat(room: Service) -> None:
    filed = await report(room, player("victim"))
    await decide(room, decision([filed["report_id"]], "temporary_chat_ban", duration=3600))
    found = await restrictions(room)
    assert (found["can_log_in"], found["can_register"], found["can_chat"]) == (True, True, False)


async def test_p12_2_an_operators_check_names_no_reporter(room: Service) -> None:
    filed = await report(room, operator(), description="collusion pattern")
    assert (filed["detection"], filed["reporter_id"]) == ("operator_check", None)


async def test_p12_2_operators_act_on_their_own_concessionaires_players_only(room: Service) -> None:
    filed = await report(room, player("victim"))
    refused = await room.http.post(
        "/internal/v1/sanctions", json=decision([filed["report_id"]]), headers=operator("room-b")
    )
    assert (refused.status_code, refused.json()["code"]) == (403, "rating.not_your_player")
    assert (await room.http.get("/internal/v1/reports", headers=operator("room-b"))).json() == []
    assert len((await room.http.get("/internal/v1/reports", headers=operator("room-a"))).json()) == 1
    await decide(room, decision([filed["report_id"]]), headers=admin())


async def test_p12_2_players_cannot_decide_sanctions(room: Service) -> None:
    filed = await report(room, player("victim"))
    refused = await room.http.post("/internal/v1/sanctions", json=decision([filed["report_id"]]), headers=player("x"))
    assert (refused.status_code, refused.json()["code"]) == (403, "rating.staff_only")


async def test_conduct_calls_need_the_principal_the_gateway_authenticated(room: Service) -> None:
    missing = await room.http.post("/internal/v1/reports", json={"offender_id": "bad", "offence": "other"})
    assert (missing.status_code, missing.json()["code"]) == (401, "principal_missing")
    partner = {"X-Principal-Role": "partner", "X-Principal-Id": "key-1", "X-Concessionaire-Id": "room-a"}
    refused = await room.http.get("/internal/v1/reports", headers=partner)
    assert refused.status_code == 403


async def test_p12_1_a_player_cannot_report_themself_nor_an_unknown_player(room: Service) -> None:
    themself = await room.http.post(
        "/internal/v1/reports", json={"offender_id": "bad", "offence": "other"}, headers=player("bad")
    )
    assert (themself.status_code, themself.json()["code"]) == (422, "rating.invalid_report")
    unknown = await room.http.post(
        "/internal/v1/reports", json={"offender_id": "nobody", "offence": "other"}, headers=player("bad")
    )
    assert (unknown.status_code, unknown.json()["code"]) == (404, "rating.player_unknown")


async def test_p12_2_the_staff_see_the_history_and_the_repetition_is_recorded(room: Service) -> None:
    first = await report(room, player("victim"))
    await decide(room, decision([first["report_id"]]))
    second = await report(room, player("victim"), offence="private_information")
    conduct = await room.http.get(
        "/internal/v1/players/bad/conduct",
        params={"offence": "offensive_language", "gravity": "serious", "context": "during_tournament"},
        headers=operator(),
    )
    body = conduct.json()
    assert body["reports_by_offence"] == {"offensive_language": 1, "private_information": 1}
    assert body["sanctions_by_offence"] == {"offensive_language": 1}
    # Serious (base 2) + one repetition = severity 3: after a warning and two chat bans, disqualification.
    assert body["suggestion"] == {
        "kind": "tournament_disqualification",
        "duration": None,
        "ban_scope": None,
        "severity": 3,
    }
    again = await decide(room, decision([second["report_id"]], "temporary_chat_ban", duration="P7D"))
    assert again["prior_sanctions"] == 1
    assert (await room.http.get("/internal/v1/players/bad/conduct", headers=player("bad"))).status_code == 403


@pytest.mark.parametrize(
    ("kind", "changes"),
    [
        ("ranking_penalty", {"context": "after_tournament", "ranking_penalty_positions": 3}),  # P-12.3 only
        ("pending_tournaments_disqualification", {}),  # P-12.4 only: after the tournament
        ("temporary_ban", {"ban_scope": "room"}),  # needs its duration
        ("written_warning", {"duration": "P1D"}),  # takes none
    ],
)
async def test_p12_3_p12_4_decisions_the_rules_do_not_allow_are_refused(
    room: Service, kind: str, changes: dict[str, Any]
) -> None:
    filed = await report(room, player("victim"))
    response = await room.http.post(
        "/internal/v1/sanctions", json=decision([filed["report_id"]], kind, **changes), headers=operator()
    )
    assert (response.status_code, response.json()["code"]) == (422, "rating.invalid_sanction")
    assert await room.published("rating.sanction.decided") == []


async def test_p12_2_a_decision_answers_reports_about_one_player(room: Service) -> None:
    about_bad = await report(room, player("victim"))
    about_victim = await report(room, player("bad"), offender="victim")
    response = await room.http.post(
        "/internal/v1/sanctions",
        json=decision([about_bad["report_id"], about_victim["report_id"]]),
        headers=operator(),
    )
    assert (response.status_code, response.json()["code"]) == (422, "rating.invalid_sanction")


async def test_p12_2_a_dismissed_report_closes_without_sanction(room: Service) -> None:
    filed = await report(room, player("victim"))
    dismissed = await room.http.post(f"/internal/v1/reports/{filed['report_id']}/dismissal", headers=operator())
    assert (dismissed.json()["status"], dismissed.json()["closed_by"]) == ("dismissed", "op-1")
    again = await room.http.post(f"/internal/v1/reports/{filed['report_id']}/dismissal", headers=operator())
    assert (again.status_code, again.json()["code"]) == (409, "rating.report_closed")
    refused = await room.http.post("/internal/v1/sanctions", json=decision([filed["report_id"]]), headers=operator())
    assert (refused.status_code, refused.json()["code"]) == (409, "rating.report_dismissed")


async def test_p12_5_a_temporary_sanction_expires_and_is_lifted_once(room: Service) -> None:
    filed = await report(room, player("victim"))
    sanction = await decide(room, decision([filed["report_id"]], "temporary_chat_ban", duration="P1D"))
    room.clock.advance(timedelta(days=1) - timedelta(seconds=1))
    assert (await room.http.post("/internal/v1/jobs/sanction-expiry")).json() == {"lifted": 0}
    assert (await restrictions(room))["can_chat"] is False
    room.clock.advance(timedelta(seconds=1))
    assert (await restrictions(room))["can_chat"] is True
    assert (await room.http.post("/internal/v1/jobs/sanction-expiry")).json() == {"lifted": 1}
    assert (await room.http.post("/internal/v1/jobs/sanction-expiry")).json() == {"lifted": 0}
    [lifted] = await room.published("rating.sanction.lifted")
    assert (lifted.sanction_id, lifted.kind, lifted.reason) == (
        sanction["sanction_id"],
        "temporary_chat_ban",
        "expired",
    )
    seen = await room.http.get(f"/internal/v1/sanctions/{sanction['sanction_id']}", headers=player("bad"))
    assert seen.json()["lifted_reason"] == "expired"


async def test_p12_5_the_background_sweep_lifts_expired_sanctions(fresh_sqlite: str) -> None:
    async with running_service(fresh_sqlite, migrate_on_start=False, sanction_expiry_interval_seconds=0.01) as service:
        await service.register("bad", "BadBoy", "room-a")
        await service.register("victim", "Victim", "room-a")
        filed = await report(service, player("victim"))
        await decide(service, decision([filed["report_id"]], "temporary_ban", duration="PT1H", ban_scope="room"))
        service.clock.advance(timedelta(hours=1))

        async def lifted() -> list[Any]:
            return await service.published("rating.sanction.lifted")

        assert [event.reason for event in await eventually(lifted)] == ["expired"]


async def test_appeals_leave_a_trail_and_an_overturned_sanction_is_lifted(room: Service) -> None:
    filed = await report(room, player("victim"))
    sanction_id = (await decide(room, decision([filed["report_id"]], "permanent_chat_ban")))["sanction_id"]
    appeal_path = f"/internal/v1/sanctions/{sanction_id}/appeal"
    stranger = await room.http.post(appeal_path, json={"grounds": "not me"}, headers=player("victim"))
    assert stranger.status_code == 404
    appealed = await room.http.post(appeal_path, json={"grounds": "I was quoting"}, headers=player("bad"))
    assert appealed.status_code == 201
    assert appealed.json()["appeal"]["grounds"] == "I was quoting"
    twice = await room.http.post(appeal_path, json={"grounds": "again"}, headers=player("bad"))
    assert (twice.status_code, twice.json()["code"]) == (409, "rating.invalid_appeal")
    assert (await restrictions(room))["can_chat"] is False  # an appeal does not suspend the sanction
    by_player = await room.http.post(
        f"{appeal_path}/decision", json={"outcome": "sanction_overturned"}, headers=player("bad")
    )
    assert by_player.status_code == 403
    decided = await room.http.post(
        f"{appeal_path}/decision", json={"outcome": "sanction_overturned"}, headers=operator()
    )
    assert decided.json()["appeal"]["outcome"] == "sanction_overturned"
    assert decided.json()["lifted_reason"] == "overturned_on_appeal"
    assert (await restrictions(room))["can_chat"] is True
    [lifted] = await room.published("rating.sanction.lifted")
    assert (lifted.sanction_id, lifted.reason) == (sanction_id, "overturned_on_appeal")
    trail = await room.http.get("/internal/v1/players/bad/sanctions", headers=player("bad"))
    assert [(s["sanction_id"], s["appeal"]["decided_by"]) for s in trail.json()] == [(sanction_id, "op-1")]
    conduct = await room.http.get("/internal/v1/players/bad/conduct", headers=admin())
    assert conduct.json()["sanctions_by_offence"] == {}  # an overturned sanction is no repetition


async def test_an_upheld_appeal_keeps_the_sanction_in_force(room: Service) -> None:
    filed = await report(room, player("victim"))
    sanction_id = (await decide(room, decision([filed["report_id"]], "permanent_chat_ban")))["sanction_id"]
    await room.http.post(f"/internal/v1/sanctions/{sanction_id}/appeal", json={"grounds": "no"}, headers=player("bad"))
    decided = await room.http.post(
        f"/internal/v1/sanctions/{sanction_id}/appeal/decision", json={"outcome": "sanction_upheld"}, headers=admin()
    )
    assert (decided.json()["appeal"]["outcome"], decided.json()["lifted_at"]) == ("sanction_upheld", None)
    assert (await restrictions(room))["can_chat"] is False
    assert await room.published("rating.sanction.lifted") == []


async def test_players_see_only_their_own_sanctions(room: Service) -> None:
    filed = await report(room, player("victim"))
    sanction_id = (await decide(room, decision([filed["report_id"]])))["sanction_id"]
    assert (await room.http.get(f"/internal/v1/sanctions/{sanction_id}", headers=player("victim"))).status_code == 404
    assert (await room.http.get(f"/internal/v1/sanctions/{sanction_id}", headers=operator("room-b"))).status_code == 404
    assert (await room.http.get("/internal/v1/players/bad/sanctions", headers=player("victim"))).status_code == 403
