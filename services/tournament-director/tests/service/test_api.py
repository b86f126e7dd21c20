"""The director's REST contract (docs/api/tournament-director.md): creation and its validation errors,
templates, lobby, authentication and roles."""

from __future__ import annotations

import uuid
from datetime import timedelta
from pathlib import Path

from director_harness import ADMIN, OPERATOR, START, TOKEN, player_headers, running
from tournament_director.api.schemas import (
    LobbyItem,
    PlayerTournamentOut,
    StandingOut,
    StandingsOut,
    TemplateOut,
    TournamentOut,
)
from tournament_director.service import definitions, queries

PRICE = {"prize_part_cents": 900, "fee_cents": 100}


async def test_p3_3_an_invalid_definition_is_refused_with_every_problem_as_field_code_message(tmp_path: Path) -> None:
    async with running(tmp_path) as platform:
        answer = await platform.director.post(
            "/internal/v1/tournaments",
            json={
                "template": "heads_up_sit_and_go",
                "name": "Too dear",
                "buy_in": {"prize_part_cents": 20_000, "fee_cents": 1_000},
                "rebuy": {"price": PRICE, "chips": 1_500, "max_rebuys": 50, "last_level": 3},
            },
            headers={"X-Internal-Token": TOKEN, **OPERATOR},
        )
        assert answer.status_code == 422
        assert answer.headers["content-type"].startswith("application/problem+json")
        problem = answer.json()
        assert problem["code"] == "validation_failed"
        fields = {error["field"] for error in problem["errors"]}
        assert {"buy_in", "rebuy.max_rebuys"} <= fields, problem["errors"]
        assert all(set(error) == {"field", "code", "message"} for error in problem["errors"])

        scheduled = await platform.director.post(
            "/internal/v1/tournaments",
            json={"template": "scheduled_mtt", "name": "When?", "buy_in": PRICE},
            headers={"X-Internal-Token": TOKEN, **OPERATOR},
        )
        assert scheduled.status_code == 422 and scheduled.json()["errors"][0]["field"] == "starts_at"


async def test_tournaments_from_templates_or_whole_definitions_show_in_the_lobby(tmp_path: Path) -> None:
    async with running(tmp_path) as platform:
        templates = (await platform.director.get("/v1/templates")).json()
        assert {t["template"] for t in templates} >= {
            "heads_up_sit_and_go",
            "nine_max_sit_and_go",
            "rebuy_mtt",
            "freeroll",
            "satellite",
        }
        nine = next(t for t in templates if t["template"] == "nine_max_sit_and_go")
        whole = {**nine["definition"], "name": "From scratch", "currency": "EUR"}
        key = uuid.uuid4().hex
        headers = {"X-Internal-Token": TOKEN, "Idempotency-Key": key, **OPERATOR}
        first = await platform.director.post("/internal/v1/tournaments", json=whole, headers=headers)
        again = await platform.director.post("/internal/v1/tournaments", json=whole, headers=headers)
        assert (first.status_code, again.status_code) == (201, 200)
        assert first.json()["tournament_id"] == again.json()["tournament_id"]
        assert first.json()["concessionaire_id"] == "c1"  # an operator's tournaments are their concessionaire's

        lobby = (await platform.director.get("/v1/tournaments", params={"status": "registering"})).json()
        assert [item["name"] for item in lobby] == ["From scratch"]
        assert set(lobby[0]) == {
            "tournament_id", "name", "kind", "status", "currency", "buy_in_prize_cents", "buy_in_fee_cents",
            "registered", "min_players", "max_players", "starts_at", "betting_structure", "table_mode",
            "guarantee_cents", "freeroll", "concessionaire_id", "recurring", "paused_at",
        }  # fmt: skip
        assert (await platform.director.get("/v1/tournaments", params={"status": "running"})).json() == []


async def test_internal_routes_need_the_token_and_a_principal_allowed_to_act(tmp_path: Path) -> None:
    async with running(tmp_path) as platform:
        t = (await platform.create({"template": "heads_up_sit_and_go", "name": "HU", "buy_in": PRICE}))["tournament_id"]
        path = f"/internal/v1/tournaments/{t}/registrations"
        body = {"player_id": "ann", "concessionaire_id": "c1"}
        no_token = await platform.director.post(path, json=body, headers={**ADMIN, "Idempotency-Key": "k"})
        someone_else = await platform.director.post(
            path, json=body, headers={"X-Internal-Token": TOKEN, "Idempotency-Key": "k", **player_headers("bob")}
        )
        no_key = await platform.director.post(
            path, json=body, headers={"X-Internal-Token": TOKEN, **player_headers("ann")}
        )
        player_creates = await platform.director.post(
            "/internal/v1/tournaments", json={"name": "x"}, headers={"X-Internal-Token": TOKEN, **player_headers("ann")}
        )
        assert no_token.status_code == 401
        assert someone_else.status_code == 403
        assert no_key.status_code == 400 and no_key.json()["code"] == "idempotency_key_required"
        assert player_creates.status_code == 403
        assert (await platform.director.get(f"/v1/tournaments/{t}/standings")).status_code == 200
        assert (await platform.director.get("/v1/tournaments/nope")).status_code == 404


async def test_a_tournament_is_announced_until_its_registration_opens(tmp_path: Path) -> None:
    async with running(tmp_path) as platform:
        opens = START + timedelta(minutes=30)
        created = await platform.create(
            {
                "template": "scheduled_mtt",
                "name": "Sunday",
                "buy_in": PRICE,
                "registration_opens_at": opens.isoformat(),
                "starts_at": (opens + timedelta(hours=2)).isoformat(),
            }
        )
        t = created["tournament_id"]
        assert created["status"] == "announced"
        await platform.fund("ann", 1_000)
        assert (await platform.register(t, "ann")).json()["code"] == "registration_closed"

        await platform.tick(timedelta(minutes=30))

        assert (await platform.tournament(t))["status"] == "registering"
        assert (await platform.register(t, "ann")).status_code == 201


async def test_the_public_routes_answer_with_their_models_every_field_the_director_gives(tmp_path: Path) -> None:
    """The OpenAPI contract says what callers get (issue 19): each public answer is its response model, and the
    model has every field the director fills in (a field missing from a model would be dropped unseen)."""
    async with running(tmp_path) as platform:
        t = (await platform.create({"template": "heads_up_sit_and_go", "name": "HU", "buy_in": PRICE}))["tournament_id"]
        waiting = await queries.standings(platform.service, t)
        platform.bots.hold()
        for player in ("ann", "bob"):
            await platform.fund(player, 5_000)
            await platform.register(t, player)

        async def running_with_tables() -> bool:
            return bool((await queries.details(platform.service, t))["tables"])

        await platform.until(running_with_tables)
        details = await queries.details(platform.service, t)
        [listed] = await queries.lobby(platform.service, "running", None)
        playing = await queries.standings(platform.service, t)
        assert set(details) == set(TournamentOut.model_fields)
        assert set(listed) == set(LobbyItem.model_fields)
        assert set(playing) == set(waiting) == set(StandingsOut.model_fields)
        assert all(set(player) <= set(StandingOut.model_fields) for player in waiting["players"] + playing["players"])
        assert all(set(template) == set(TemplateOut.model_fields) for template in definitions.catalogue())
        assert (await platform.director.get(f"/v1/tournaments/{t}")).json() == details
        assert (await platform.director.get(f"/v1/tournaments/{t}/standings")).json() == playing
        [entered] = await queries.player_tournaments(platform.service, "ann")
        assert set(entered) <= set(PlayerTournamentOut.model_fields)
        mine = await platform.get("/internal/v1/players/ann/tournaments", player_headers("ann"))
        assert mine.json() == [entered]
        await platform.bots.release()

        schema = (await platform.director.get("/openapi.json")).json()
        for path, model in [
            ("/v1/tournaments/{tournament_id}", "TournamentOut"),
            ("/v1/tournaments/{tournament_id}/standings", "StandingsOut"),
        ]:
            answer = schema["paths"][path]["get"]["responses"]["200"]["content"]["application/json"]["schema"]
            assert answer == {"$ref": f"#/components/schemas/{model}"}
