"""Issue 17: staff keep the lobby's schedule from the console — an operator's entries open tournaments of their
own concessionaire, are checked when made as the tournament would be, and stop opening once disabled; another
concessionaire's operator neither sees nor disables them."""

from __future__ import annotations

from datetime import timedelta
from pathlib import Path
from typing import Any

import httpx
from director_harness import ADMIN, OPERATOR, START, TOKEN, Platform, running
from tournament_director.api.schemas import LobbyEntryOut
from tournament_director.domain.lobby_schedule import DEFAULT_SCHEDULE
from tournament_director.service import lobby_entries
from tournament_director.service.lobby import Lobby
from tournament_director.service.principals import Principal, Role

PRICE = {"prize_part_cents": 900, "fee_cents": 100}
OTHER_OPERATOR = {"X-Principal-Role": "operator", "X-Principal-Id": "op-2", "X-Concessionaire-Id": "c2"}
PATH = "/internal/v1/lobby-schedule"
SIT_AND_GO = {"key": "our-hu", "body": {"template": "heads_up_sit_and_go", "name": "Our HU", "buy_in": PRICE}}
HOURLY = {
    "key": "our-hourly",
    "every_minutes": 60,
    "body": {"template": "scheduled_mtt", "name": "Our Hourly", "buy_in": PRICE},
}


async def call(platform: Platform, method: str, path: str, who: dict[str, str], body: Any = None) -> httpx.Response:
    return await platform.director.request(method, path, json=body, headers={"X-Internal-Token": TOKEN, **who})


async def registering(platform: Platform, name: str) -> list[dict[str, Any]]:
    lobby = (await platform.director.get("/v1/tournaments", params={"status": "registering"})).json()
    return [item for item in lobby if item["name"] == name]


async def test_an_operators_entries_open_their_concessionaires_tournaments_and_stay_theirs(tmp_path: Path) -> None:
    async with running(tmp_path) as platform:
        for entry in (SIT_AND_GO, HOURLY):
            made = await call(platform, "POST", PATH, OPERATOR, entry)
            assert made.status_code == 201, made.text
            assert (made.json()["concessionaire_id"], made.json()["enabled"]) == ("c1", True)
        await Lobby(platform.service).keep()
        [hu] = await registering(platform, "Our HU")
        [hourly] = await registering(platform, "Our Hourly")
        assert hu["concessionaire_id"] == hourly["concessionaire_id"] == "c1" and hu["recurring"]
        assert hourly["starts_at"] == (START + timedelta(hours=1)).isoformat()

        mine = (await call(platform, "GET", PATH, OPERATOR)).json()
        assert sorted(e["key"] for e in mine) == ["our-hourly", "our-hu"]
        assert (await call(platform, "GET", PATH, OTHER_OPERATOR)).json() == []
        everyone = (await call(platform, "GET", PATH, ADMIN)).json()
        assert {e["key"] for e in everyone} == {"our-hourly", "our-hu"}
        refused = await call(platform, "DELETE", f"{PATH}/our-hu", OTHER_OPERATOR)
        assert (refused.status_code, refused.json()["code"]) == (404, "lobby_entry_not_found")
        player = {"X-Principal-Role": "player", "X-Principal-Id": "ann"}
        assert (await call(platform, "GET", PATH, player)).status_code == 403


async def test_a_disabled_entry_opens_nothing_more_and_its_sit_and_go_no_successor(tmp_path: Path) -> None:
    async with running(tmp_path) as platform:
        for entry in (SIT_AND_GO, HOURLY):
            assert (await call(platform, "POST", PATH, OPERATOR, entry)).status_code == 201
        lobby = Lobby(platform.service)
        await lobby.keep()
        [hu] = await registering(platform, "Our HU")
        for key in ("our-hu", "our-hourly"):
            disabled = await call(platform, "DELETE", f"{PATH}/{key}", OPERATOR)
            assert disabled.status_code == 200 and disabled.json()["enabled"] is False
            assert (await call(platform, "DELETE", f"{PATH}/{key}", OPERATOR)).status_code == 200  # idempotent
        assert (await platform.tournament(hu["tournament_id"]))["recurring"] is False

        await platform.tick(timedelta(hours=1))  # the hourly occurrence starts, or is cancelled below its minimum
        await lobby.keep()
        await Lobby(platform.service).keep()  # a replica that never saw the entries either
        assert await registering(platform, "Our Hourly") == []
        assert [t["tournament_id"] for t in await registering(platform, "Our HU")] == [hu["tournament_id"]]


async def test_an_entry_is_checked_as_its_tournament_would_be(tmp_path: Path) -> None:
    schedule = [entry.model_dump() for entry in DEFAULT_SCHEDULE[:1]]
    async with running(tmp_path, lobby_schedule=schedule) as platform:

        async def refused(body: dict[str, Any], who: dict[str, str] = OPERATOR) -> tuple[int, str, list[str]]:
            answer = await call(platform, "POST", PATH, who, body)
            problem = answer.json()
            return answer.status_code, problem["code"], [e["field"] for e in problem.get("errors", [])]

        unknown = {**SIT_AND_GO, "body": {**SIT_AND_GO["body"], "template": "no_such_template"}}
        assert await refused(unknown) == (422, "validation_failed", ["template"])
        fixed = {**SIT_AND_GO, "body": {**SIT_AND_GO["body"], "tournament_id": "mine"}}
        assert await refused(fixed) == (422, "validation_failed", ["body.tournament_id"])
        assert (await refused({**SIT_AND_GO, "key": "Not A Key"}))[:2] == (422, "validation_failed")
        assert (await refused({**HOURLY, "every_minutes": 1}))[:2] == (422, "validation_failed")
        assert (await call(platform, "POST", PATH, OPERATOR, SIT_AND_GO)).status_code == 201
        assert (await refused(SIT_AND_GO, ADMIN))[:2] == (409, "lobby_entry_exists")
        assert (await refused({**SIT_AND_GO, "key": "heads-up"}, ADMIN))[:2] == (409, "lobby_entry_exists")
        listed = (await call(platform, "GET", PATH, ADMIN)).json()
        entries = await lobby_entries.listed(platform.service, Principal(Role.ADMIN, "admin-1", None))
        assert [set(entry) for entry in entries] == [set(LobbyEntryOut.model_fields)] * 2  # none dropped unseen
        assert [(e["key"], e["source"]) for e in listed] == [("heads-up", "settings"), ("our-hu", "console")]
