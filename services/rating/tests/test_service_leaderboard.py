"""The public leaderboard (P-11.5): paged, by nickname only, each player with their tier; and a player's own
rating with their rank."""

from __future__ import annotations

from typing import Any

from rating_service_support import YESTERDAY, Service, finished

PLAYERS = [f"player-{n}" for n in range(1, 8)]


async def page(service: Service, number: int, size: int) -> dict[str, Any]:
    response = await service.http.get("/v1/leaderboard", params={"page": number, "size": size})
    assert response.status_code == 200, response.text
    return dict(response.json())


async def test_p11_5_the_public_leaderboard_shows_nicknames_and_never_a_player_id(service: Service) -> None:
    for n, player in enumerate(PLAYERS, start=1):
        await service.register(player, f"Shark{n}")
    await service.publish(finished("t1", PLAYERS))
    await service.close_day(YESTERDAY)
    response = await service.http.get("/v1/leaderboard", headers={"X-Internal-Token": ""})  # public: no token
    assert response.status_code == 200
    assert not any(player in response.text for player in PLAYERS)
    first = response.json()["entries"][0]
    assert first == {
        "rank": 1,
        "nickname": "Shark1",
        "rating": "10.000000",
        "tier": "GRUPPO_UNO",
        "tier_label": "GRUPPO UNO (Group One)",
    }


async def test_p11_5_the_leaderboard_is_paged_in_rank_order_with_each_players_tier(service: Service) -> None:
    for n, player in enumerate(PLAYERS, start=1):
        await service.register(player, f"Shark{n}")
    await service.publish(finished("t1", PLAYERS))
    await service.close_day(YESTERDAY)
    pages = [await page(service, n, 3) for n in (1, 2, 3, 4)]
    assert {(p["day"], p["active_count"], p["size"]) for p in pages} == {("2025-03-01", 7, 3)}
    entries = [e for p in pages for e in p["entries"]]
    assert [e["nickname"] for e in entries] == [f"Shark{n}" for n in range(1, 8)]
    assert [e["rank"] for e in entries] == list(range(1, 8))
    # 7 active players: parts of 2, 2, 1, 1, 1 (the remainder goes to the best tiers, P-11.3).
    assert [e["tier"] for e in entries] == [
        "GRUPPO_UNO",
        "GRUPPO_UNO",
        "GRUPPO_DUE",
        "GRUPPO_DUE",
        "GRUPPO_TRE",
        "LISTED",
        "CONDIZIONATA",
    ]
    assert pages[3]["entries"] == []


async def test_p11_5_a_player_not_yet_announced_by_the_gateway_shows_no_nickname_and_no_id(service: Service) -> None:
    await service.publish(finished("t1", ["ghost"]))
    await service.close_day(YESTERDAY)
    board = await page(service, 1, 10)
    assert board["entries"][0]["nickname"] is None
    assert "ghost" not in str(board)


async def test_p11_5_a_nickname_arriving_later_shows_at_once(service: Service) -> None:
    await service.publish(finished("t1", ["late"]))
    await service.close_day(YESTERDAY)
    await service.register("late", "LateBird")
    assert (await page(service, 1, 10))["entries"][0]["nickname"] == "LateBird"


async def test_the_leaderboard_is_empty_before_anyone_played(service: Service) -> None:
    board = await page(service, 1, 50)
    assert (board["active_count"], board["entries"]) == (0, [])


async def test_a_players_own_rating_shows_their_tier_in_force_and_rank(service: Service) -> None:
    await service.publish(finished("t1", PLAYERS))
    await service.close_day(YESTERDAY)
    response = await service.http.get("/internal/v1/players/player-3/rating", params={"day": "2025-03-01"})
    body = response.json()
    assert (body["rank"], body["tier"], body["tier_since"], body["active"]) == (3, "GRUPPO_DUE", "2025-03-01", True)


async def test_internal_routes_need_the_internal_token(service: Service) -> None:
    for method, path in (
        ("GET", "/internal/v1/players/p/rating"),
        ("POST", "/internal/v1/eligibility"),
        ("GET", "/internal/v1/players/p/restrictions"),
        ("POST", "/internal/v1/jobs/tiers"),
        ("POST", "/internal/v1/sanctions"),
    ):
        response = await service.http.request(method, path, headers={"X-Internal-Token": "wrong"}, json={})
        assert (response.status_code, response.json()["code"]) == (401, "unauthorized"), path
