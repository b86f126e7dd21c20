"""The read-only REST API: a table's public state, its hands, and histories."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest
from platform_kit.events import table as contract
from table_harness import START, Harness, running


@pytest.fixture
async def service(tmp_path: Path) -> AsyncIterator[Harness]:
    async with running(tmp_path / "api.db") as harness:
        await harness.open_table("api")
        yield harness


async def test_the_public_state_of_a_hand_in_progress(service: Harness) -> None:
    hand_id = await service.start_hand("api")
    await service.act("api", hand_id, "p1", "raise", 100)
    response = await service.http.get("/v1/tables/api")
    assert response.status_code == 200
    view = response.json()
    assert (view["status"], view["button_seat"], view["level"]["big_blind"]) == ("open", 1, 20)
    hand = view["hand"]
    assert (hand["hand_id"], hand["street"], hand["board"], hand["pot"], hand["to_act"]) == (
        hand_id,
        "preflop",
        [],
        130,
        2,
    )
    assert (hand["button_seat"], hand["small_blind_seat"], hand["big_blind_seat"]) == (1, 2, 3)
    assert hand["deadline"] == START.replace(second=20).isoformat()
    assert [(s["seat"], s["stack"], s["bet"], s["in_hand"]) for s in view["seats"]] == [
        (1, 900, 100, True),
        (2, 990, 10, True),
        (3, 980, 20, True),
    ]


async def test_unknown_tables_and_hands_are_not_found(service: Harness) -> None:
    missing = await service.http.get("/v1/tables/nope")
    assert (missing.status_code, missing.json()["code"]) == (404, "table_not_found")
    assert (await service.http.get("/v1/tables/nope/hands")).status_code == 404
    assert (await service.http.get("/v1/hands/nope/phh")).json()["code"] == "hand_not_found"
    hand_id = await service.start_hand("api")
    in_progress = await service.http.get(f"/v1/hands/{hand_id}/phh")
    assert (in_progress.status_code, in_progress.json()["code"]) == (409, "hand_in_progress")


async def test_hands_are_listed_newest_first_in_pages(service: Harness) -> None:
    played = []
    for hand_no in (1, 2, 3):
        hand_id = await service.start_hand("api", hand_no=hand_no)
        for _ in range(2):
            await service.act("api", hand_id, service.to_act().player_id, "fold")
        played.append(hand_id)
    first = (await service.http.get("/v1/tables/api/hands", params={"limit": 2})).json()
    assert [h["hand_id"] for h in first["hands"]] == played[:0:-1]
    assert first["hands"][0]["status"] == "completed" and first["hands"][0]["end_stacks"]
    rest = (await service.http.get("/v1/tables/api/hands", params={"limit": 2, "before": first["next_before"]})).json()
    assert [h["hand_id"] for h in rest["hands"]] == played[:1] and rest["next_before"] is None
    summary = rest["hands"][0]
    assert [(p["seat"], p["stack"]) for p in summary["players"]] == [(2, 1000), (3, 1000), (1, 1000)]


async def test_a_tournaments_hands_span_its_tables_and_a_players_are_filtered(service: Harness) -> None:
    """Issue 15, item 11: a finished tournament's results link to its hands, across its tables."""
    await service.open_table("api-2", stacks=(1000, 1000), tournament_id="t-1")
    await service.open_table("other", stacks=(1000, 1000), tournament_id="t-2")
    played = []
    for table_id in ("api", "api-2", "other"):
        hand_id = await service.start_hand(table_id)
        while not _ended(service, hand_id):
            await service.act(table_id, hand_id, service.to_act().player_id, "fold")
        played.append((table_id, hand_id))
    everyone = (await service.http.get("/v1/tournaments/t-1/hands")).json()
    assert [(h["table_id"], h["hand_id"]) for h in everyone["hands"]] == played[1::-1]
    assert everyone["next_before"] is None
    first = (await service.http.get("/v1/tournaments/t-1/hands", params={"limit": 1})).json()
    assert [h["hand_id"] for h in first["hands"]] == [played[1][1]] and first["next_before"]
    # p3 sat at "api" only (three seats); "api-2" dealt p1 and p2.
    p3 = (await service.http.get("/v1/tournaments/t-1/hands", params={"player_id": "p3"})).json()
    assert [h["hand_id"] for h in p3["hands"]] == [played[0][1]] and p3["next_before"] is None
    assert (await service.http.get("/v1/tournaments/nope/hands")).json() == {"hands": [], "next_before": None}


def _ended(service: Harness, hand_id: str) -> bool:
    return any(event.hand_id == hand_id for event in service.events(contract.HandCompleted))


async def test_a_hand_with_everyone_all_in_from_the_blinds_plays_itself_out(tmp_path: Path) -> None:
    async with running(tmp_path / "short.db") as service:
        await service.open_table("short", stacks=(10, 20))
        service.deck.deal(["AhAd", "7c2d"], board="KsQs3h4d9c")  # seat 2 (big blind), then seat 1 (button)
        hand_id = await service.start_hand("short")
        assert not service.events(contract.ActionRequested)
        completed = service.last(contract.HandCompleted)
        assert completed.hand_id == hand_id and len(completed.board) == 5
        assert sum(r.end_stack for r in completed.results) == 30
        assert completed.busted_player_ids == ["p1"]
