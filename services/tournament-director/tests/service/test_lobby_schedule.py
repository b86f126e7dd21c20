"""Issue 15, item 13: a lobby that always has something to play — recurring sit'n'gos re-opened exactly once when
they fill, and the schedule of tournaments the director keeps open (seeded by default in standalone mode)."""

from __future__ import annotations

from datetime import timedelta
from pathlib import Path
from typing import Any

from director_harness import ADMIN, OPERATOR, START, TOKEN, Platform, running
from platform_kit.events import tournament as events
from tournament_director.adapters import tournaments
from tournament_director.domain.lobby_schedule import DEFAULT_SCHEDULE, LobbyEntry, next_start, tournament_id
from tournament_director.service import recurring
from tournament_director.service.lobby import Lobby

PRICE = {"prize_part_cents": 900, "fee_cents": 100}
OTHER_OPERATOR = {"X-Principal-Role": "operator", "X-Principal-Id": "op-2", "X-Concessionaire-Id": "c2"}
FUNDS = 5_000


async def _registering(platform: Platform, name: str) -> list[dict[str, Any]]:
    lobby = (await platform.director.get("/v1/tournaments", params={"status": "registering"})).json()
    return [item for item in lobby if item["name"] == name]


async def _fill(platform: Platform, tournament_id: str, players: list[str]) -> None:
    for player in players:
        await platform.fund(player, FUNDS)
        assert (await platform.register(tournament_id, player)).status_code == 201


async def test_issue15_13_a_recurring_sit_and_go_that_fills_opens_one_identical_successor(tmp_path: Path) -> None:
    async with running(tmp_path) as platform:
        body = {"template": "heads_up_sit_and_go", "name": "HU again", "buy_in": PRICE, "recurring": True}
        first = (await platform.create(body))["tournament_id"]
        assert [item["tournament_id"] for item in await _registering(platform, "HU again")] == [first]

        await _fill(platform, first, ["ann", "bob"])

        [successor] = await _registering(platform, "HU again")
        assert successor["tournament_id"] == recurring.successor_id(first)
        assert (successor["buy_in_prize_cents"], successor["max_players"], successor["registered"]) == (900, 2, 0)
        assert (await platform.tournament(first))["status"] in ("running", "finished")
        await platform.published()
        opened = [e.tournament_id for e in platform.events(events.RegistrationOpened)]
        assert opened.count(successor["tournament_id"]) == 1
        # The fill seen again (a redelivered answer, a second replica) opens nothing more.
        async with platform.service.runtime.db.transaction() as session:
            filled = await tournaments.get(session, first)
            assert filled is not None and filled.recurring
            await recurring.reopen(platform.service, session, filled)
        assert len(await _registering(platform, "HU again")) == 1

        await _fill(platform, successor["tournament_id"], ["cat", "dan"])
        [third] = await _registering(platform, "HU again")
        assert third["tournament_id"] == recurring.successor_id(successor["tournament_id"])


async def test_issue15_13_a_sit_and_go_not_recurring_opens_no_successor(tmp_path: Path) -> None:
    async with running(tmp_path) as platform:
        first = await platform.create({"template": "heads_up_sit_and_go", "name": "Once", "buy_in": PRICE})
        await _fill(platform, first["tournament_id"], ["ann", "bob"])
        assert await _registering(platform, "Once") == []


async def test_a_stopped_recurring_sit_and_go_plays_but_opens_no_successor(tmp_path: Path) -> None:
    """Issue 17: staff end a recurring chain from the console; another concessionaire's operator may not."""
    async with running(tmp_path) as platform:
        body = {"template": "heads_up_sit_and_go", "name": "HU stop", "buy_in": PRICE, "recurring": True}
        first = (await platform.create(body, OPERATOR))["tournament_id"]
        path = f"/internal/v1/tournaments/{first}/recurrence"
        other = await platform.director.delete(path, headers={"X-Internal-Token": TOKEN, **OTHER_OPERATOR})
        assert other.status_code == 403
        stopped = await platform.director.delete(path, headers={"X-Internal-Token": TOKEN, **OPERATOR})
        assert stopped.status_code == 200 and stopped.json()["recurring"] is False
        again = await platform.director.delete(path, headers={"X-Internal-Token": TOKEN, **OPERATOR})
        assert again.status_code == 200  # idempotent

        await _fill(platform, first, ["ann", "bob"])

        assert await _registering(platform, "HU stop") == []
        assert (await platform.tournament(first))["status"] in ("running", "finished")


async def test_issue15_13_only_a_sit_and_go_recurs(tmp_path: Path) -> None:
    async with running(tmp_path) as platform:
        body = {"template": "scheduled_mtt", "name": "MTT", "buy_in": PRICE, "recurring": True}
        body["starts_at"] = (START + timedelta(hours=1)).isoformat()
        answer = await platform.director.post(
            "/internal/v1/tournaments",
            json={"concessionaire_id": "c1", **body},
            headers={"X-Internal-Token": TOKEN, **ADMIN},
        )
        assert answer.status_code == 422
        assert {"field": "recurring", "code": "not_allowed"}.items() <= answer.json()["errors"][0].items()


async def test_issue15_13_the_schedule_keeps_sit_and_gos_and_the_next_hourly_open_once_across_replicas(
    tmp_path: Path,
) -> None:
    schedule = [entry.model_dump() for entry in DEFAULT_SCHEDULE]
    async with running(tmp_path, lobby_schedule=schedule) as platform:
        replicas = (Lobby(platform.service), Lobby(platform.service))
        for lobby in replicas:
            await lobby.keep()
            await lobby.keep()
        lobby_now = (await platform.director.get("/v1/tournaments", params={"status": "registering"})).json()
        names = sorted(item["name"] for item in lobby_now)
        assert names == ["6-Max Sit & Go", "Heads-up Sit & Go", "Hourly Hold'em"]
        [hourly] = [item for item in lobby_now if item["kind"] == "scheduled"]
        assert hourly["starts_at"] == next_start(DEFAULT_SCHEDULE[2], START).isoformat()

        await platform.tick(timedelta(hours=1))  # the hourly one starts or is cancelled below its minimum
        await replicas[0].keep()
        await replicas[1].keep()
        later = await _registering(platform, "Hourly Hold'em")
        assert [item["starts_at"] for item in later] == [(START + timedelta(hours=2)).isoformat()]


def test_issue15_13_occurrences_start_on_the_grid_and_have_stable_ids() -> None:
    entry = LobbyEntry(key="quarter", every_minutes=15, body={"template": "scheduled_mtt", "name": "Q"})
    assert next_start(entry, START) == START + timedelta(minutes=15)
    assert next_start(entry, START + timedelta(minutes=7)) == START + timedelta(minutes=15)
    starts = next_start(entry, START)
    assert tournament_id(entry, starts) == tournament_id(entry, starts)
    changed = LobbyEntry(key="quarter", every_minutes=15, body={"template": "scheduled_mtt", "name": "Q2"})
    assert tournament_id(changed, starts) != tournament_id(entry, starts)
