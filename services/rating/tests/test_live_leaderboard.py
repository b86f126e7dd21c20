"""Issue 15, item 10: the leaderboard as of now. Until the day in progress closes, the public
standing shows every active player on today's rating with the tier their rank gives now, by nickname only
(P-11.5), and says when the tiers in force are recomputed: when the day in progress closes (P-11.3)."""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

from rating_service_support import TODAY, YESTERDAY, Service, finished

PLAYERS = [f"player-{n}" for n in range(1, 5)]


async def board(service: Service, **params: Any) -> dict[str, Any]:
    response = await service.http.get("/v1/leaderboard", params=params)
    assert response.status_code == 200, response.text
    return dict(response.json())


async def test_issue15_10_the_standing_as_of_now_ranks_players_the_closed_day_has_not_counted(service: Service) -> None:
    for n, player in enumerate(PLAYERS, start=1):
        await service.register(player, f"Shark{n}")
    await service.publish(finished("t1", PLAYERS))

    closed = await board(service)  # the last closed day was closed before these results arrived
    assert (closed["active_count"], closed["entries"], closed["live"]) == (0, [], False)

    now = await board(service, standing="now")
    assert now["live"] and now["active_count"] == 4 and now["day"] == TODAY.isoformat()
    assert [e["nickname"] for e in now["entries"]] == ["Shark1", "Shark2", "Shark3", "Shark4"]
    assert [e["rank"] for e in now["entries"]] == [1, 2, 3, 4]
    assert now["entries"][0]["tier"] == "GRUPPO_UNO" and now["entries"][0]["tier_label"] == "GRUPPO UNO (Group One)"
    assert not any(player in str(now) for player in PLAYERS)  # nicknames only (P-11.5)
    recomputed = datetime.fromisoformat(now["tiers_recomputed_at"])
    assert recomputed.date() == TODAY + timedelta(days=1) and (recomputed.hour, recomputed.minute) == (0, 0)
    assert closed["tiers_recomputed_at"] == now["tiers_recomputed_at"]


async def test_issue15_10_the_standing_as_of_now_includes_results_since_the_last_closed_day(service: Service) -> None:
    for n, player in enumerate(PLAYERS, start=1):
        await service.register(player, f"Shark{n}")
    await service.publish(finished("t1", PLAYERS[:2]))
    await service.close_day(YESTERDAY)
    await service.publish(finished("t2", list(reversed(PLAYERS))))

    closed = await board(service)
    assert closed["active_count"] == 2 and closed["tiers_of_day"] == YESTERDAY.isoformat()
    now = await board(service, standing="now", size=2, page=2)
    assert now["active_count"] == 4 and now["tiers_of_day"] == YESTERDAY.isoformat()
    assert len(now["entries"]) == 2 and [e["rank"] for e in now["entries"]] == [3, 4]
