"""Draw administration through the API (SQLite, real wallet in-process): drafts, announcement, kick-offs, void
matches, results, and the record of every operator decision (T-1.5, T-2.1–T-2.3, T-4.4, T-5.1)."""

from __future__ import annotations

from datetime import timedelta

from totalizator_harness import CLOSE_AT, OPERATOR, STAFF, TOKEN, Platform, draw_body


async def test_t2_2_a_draft_is_private_until_announced_then_its_terms_are_public(platform: Platform) -> None:
    created = await platform.staff("POST", "/draws", draw_body())
    assert created.status_code == 201, created.text
    assert created.json()["status"] == "draft"
    assert (await platform.http.get("/v1/draws/2030-23")).status_code == 404

    announced = await platform.staff("POST", "/draws/2030-23/announce")
    assert announced.status_code == 200, announced.text
    public = (await platform.http.get("/v1/draws/2030-23")).json()
    assert public["status"] == "open"
    assert {c["currency"]: (c["min_stake"], c["usd_rate"]) for c in public["currencies"]} == {
        "USD": ("0.10", "1"),
        "EUR": ("0.10", "1.0843"),
        "JPY": ("15", "0.0067"),
    }
    assert len(public["matches"]) == 8 and public["matches"][0]["options"][:3] == ["0:0", "1:0", "0:1"]
    (event,) = await platform.events("totalizator.draw.announced")
    assert event["draw_id"] == "2030-23" and event["currencies"] == ["USD", "EUR", "JPY"]
    # Announcing again changes nothing.
    assert (await platform.staff("POST", "/draws/2030-23/announce")).status_code == 200
    assert len(await platform.events("totalizator.draw.announced")) == 1


async def test_t4_4_an_organizer_top_up_needs_a_reason_and_moves_to_the_jackpot_through_the_wallet(
    platform: Platform,
) -> None:
    refused = await platform.staff("POST", "/draws", draw_body(topup="1000.00"))
    assert refused.status_code == 422 and refused.json()["code"] == "invalid_draw"
    fractional = await platform.staff("POST", "/draws", draw_body(topup="0.005", reason="launch promotion"))
    assert fractional.status_code == 422

    draw = await platform.open_draw(topup="1000.00", reason="launch promotion")
    assert draw["jackpot_usd"] == "1000.00" and draw["jackpot_topup_usd"] == "1000.00"
    assert draw["transfers"] == {"pending": 0, "done": 2, "refused": 0}
    assert await platform.pools() == {"USD": 0}  # in through the draw's pool and on to the jackpot account
    decisions = (await platform.staff("GET", "/draws/2030-23/decisions")).json()
    assert decisions[0]["action"] == "create" and decisions[0]["reason"] == "launch promotion"
    assert decisions[0]["staff_id"] == "admin-7" and decisions[0]["role"] == "admin"


async def test_t2_1_t2_3_invalid_drafts_are_refused_with_clear_codes(platform: Platform) -> None:
    early = draw_body()
    early["matches"][3]["kickoff"] = (CLOSE_AT - timedelta(minutes=1)).isoformat()
    response = await platform.staff("POST", "/draws", early)
    assert response.status_code == 422 and "match 4" in response.json()["title"]

    bad_rate = draw_body()
    bad_rate["currencies"] = [{"currency": "EUR", "min_stake": "0.10", "usd_rate": "0"}]
    assert (await platform.staff("POST", "/draws", bad_rate)).json()["code"] == "invalid_draw"

    unknown = draw_body()
    unknown["currencies"] = [{"currency": "XYZ", "min_stake": "1", "usd_rate": "1"}]
    assert (await platform.staff("POST", "/draws", unknown)).json()["code"] == "invalid_draw"

    assert (await platform.staff("POST", "/draws", draw_body())).status_code == 201
    again = await platform.staff("POST", "/draws", draw_body())
    assert again.status_code == 409 and again.json()["code"] == "draw_exists"


async def test_administration_needs_the_internal_token_and_a_staff_role(platform: Platform) -> None:
    no_token = await platform.http.post("/internal/v1/draws", json=draw_body(), headers={"X-Principal-Role": "admin"})
    assert no_token.status_code == 401 and no_token.json()["code"] == "unauthorized"
    no_role = await platform.http.post("/internal/v1/draws", json=draw_body(), headers={"X-Internal-Token": TOKEN})
    assert no_role.status_code == 401 and no_role.json()["code"] == "principal_missing"
    player = {"X-Internal-Token": TOKEN, "X-Principal-Role": "player", "X-Principal-Id": "p1"}
    forbidden = await platform.http.post("/internal/v1/draws", json=draw_body(), headers=player)
    assert forbidden.status_code == 403 and forbidden.json()["code"] == "staff_only"
    admin = {**STAFF, "X-Principal-Role": "admin"}
    assert (await platform.http.post("/internal/v1/draws", json=draw_body(), headers=admin)).status_code == 201


async def test_t1_5_draws_are_administered_by_the_networks_admins_and_read_by_any_staff(platform: Platform) -> None:
    """An operator belongs to one concessionaire; the draws are the whole network's: every decision on them
    (create, announce, kick-off, result, void, settle, cancel) is an administrator's (T-1.5)."""
    await platform.open_draw()
    writes = [
        ("POST", "/draws", draw_body("2030-24")),
        ("POST", "/draws/2030-23/announce", None),
        ("PUT", "/draws/2030-23/matches/1/kickoff", {"kickoff": CLOSE_AT.isoformat(), "reason": "late"}),
        ("PUT", "/draws/2030-23/matches/1/result", {"home": 1, "away": 0}),
        ("POST", "/draws/2030-23/matches/1/void", {"reason": "abandoned"}),
        ("POST", "/draws/2030-23/settle", None),
        ("POST", "/draws/2030-23/cancel", {"reason": "postponed"}),
    ]
    for method, path, body in writes:
        refused = await platform.http.request(method, f"/internal/v1{path}", json=body, headers=OPERATOR)
        assert (refused.status_code, refused.json()["code"]) == (403, "admins_only"), (method, path)
    draw = (await platform.staff("GET", "/draws/2030-23")).json()
    assert draw["status"] == "open" and all(match["void"] is False for match in draw["matches"])
    assert [d["action"] for d in (await platform.staff("GET", "/draws/2030-23/decisions")).json()] == [
        "create",
        "announce",
    ]
    for path in ("/draws", "/draws/2030-23", "/draws/2030-23/decisions", "/draws/2030-23/transfers"):
        assert (await platform.http.get(f"/internal/v1{path}", headers=OPERATOR)).status_code == 200, path


async def test_t5_1_a_match_that_kicked_off_before_closing_is_void(platform: Platform) -> None:
    await platform.open_draw()
    early = (CLOSE_AT - timedelta(hours=1)).isoformat()
    response = await platform.staff("PUT", "/draws/2030-23/matches/3/kickoff", {"kickoff": early})
    assert response.status_code == 200, response.text
    draw = response.json()
    assert draw["void_matches"] == [3] and draw["matches"][2]["void"] and not draw["matches"][2]["declared_void"]
    (voided,) = await platform.events("totalizator.match.voided")
    assert voided["cause"] == "kicked_off_before_closing" and voided["playable"] is True

    on_time = (CLOSE_AT + timedelta(hours=5)).isoformat()
    later = await platform.staff("PUT", "/draws/2030-23/matches/4/kickoff", {"kickoff": on_time})
    assert later.json()["void_matches"] == [3]
    actions = [d["action"] for d in (await platform.staff("GET", "/draws/2030-23/decisions")).json()]
    assert actions == ["create", "announce", "kickoff", "kickoff"]


async def test_t1_5_voiding_a_match_by_decision_is_recorded_with_its_reason(platform: Platform) -> None:
    await platform.open_draw()
    without_reason = await platform.staff("POST", "/draws/2030-23/matches/5/void", {})
    assert without_reason.status_code == 422
    voided = await platform.staff("POST", "/draws/2030-23/matches/5/void", {"reason": "match abandoned, rule 4.2"})
    assert voided.json()["void_matches"] == [5] and voided.json()["matches"][4]["declared_void"]
    decision = (await platform.staff("GET", "/draws/2030-23/decisions")).json()[-1]
    assert (decision["action"], decision["match_no"], decision["reason"]) == ("void", 5, "match abandoned, rule 4.2")
    (event,) = await platform.events("totalizator.match.voided")
    assert event["cause"] == "decision" and event["reason"] == "match abandoned, rule 4.2"


async def test_t1_5_results_come_after_closing_and_a_correction_needs_a_reason(platform: Platform) -> None:
    await platform.open_draw()
    early = await platform.staff("PUT", "/draws/2030-23/matches/1/result", {"home": 2, "away": 1})
    assert early.status_code == 409 and early.json()["code"] == "draw_state_conflict"
    await platform.close()

    entered = await platform.staff("PUT", "/draws/2030-23/matches/1/result", {"home": 7, "away": 1})
    assert entered.json()["matches"][0]["result"] == "other home"  # 7:1 is not offered (T-2.1)
    correction = await platform.staff("PUT", "/draws/2030-23/matches/1/result", {"home": 2, "away": 1})
    assert correction.status_code == 422 and correction.json()["code"] == "reason_required"
    corrected = await platform.staff(
        "PUT", "/draws/2030-23/matches/1/result", {"home": 2, "away": 1, "reason": "referee report: 2:1"}
    )
    assert corrected.json()["matches"][0]["score"] == "2:1" and corrected.json()["matches"][0]["result"] == "2:1"
    decision = (await platform.staff("GET", "/draws/2030-23/decisions")).json()[-1]
    assert decision["action"] == "result_correction" and decision["detail"]["previous"] == "7:1"
