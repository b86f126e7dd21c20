"""Pausing a running tournament for a technical problem (issue 17), through the real wallet and table engine:
the hand in progress finishes and no new one is dealt until the resumption; staff of the tournament's
concessionaire only; each change published; clear refusals otherwise."""

from __future__ import annotations

from pathlib import Path

from director_harness import OPERATOR, Platform, running
from platform_kit.events import table as table_events
from platform_kit.events import tournament as events

PRICE = {"prize_part_cents": 900, "fee_cents": 100}
OTHER = {"X-Principal-Role": "operator", "X-Principal-Id": "op-2", "X-Concessionaire-Id": "c2"}


async def lobby_paused_at(platform: Platform, tournament_id: str) -> str | None:
    lobby = (await platform.director.get("/v1/tournaments", params={"status": "running"})).json()
    [item] = [item for item in lobby if item["tournament_id"] == tournament_id]
    paused_at: str | None = item["paused_at"]
    return paused_at


async def test_a_paused_tournament_deals_no_new_hand_until_it_is_resumed(tmp_path: Path) -> None:
    async with running(tmp_path) as platform:
        t = (await platform.create({"template": "heads_up_sit_and_go", "name": "HU", "buy_in": PRICE}))["tournament_id"]
        platform.bots.hold()  # the first hand waits for its players: the pause comes during it
        for player in ("ann", "bob"):
            await platform.fund(player, 5_000)
            await platform.register(t, player)

        def count(kind: type) -> int:
            return len(platform.events(kind))

        async def dealt() -> bool:
            return count(table_events.StartHand) == 1

        await platform.until(dealt)
        path = f"/internal/v1/tournaments/{t}"
        assert (await platform.post(f"{path}/pause", {"reason": "mine"}, OTHER)).status_code == 403
        paused = await platform.post(f"{path}/pause", {"reason": "Database failover"}, OPERATOR)
        assert paused.status_code == 200, paused.text
        assert paused.json()["clock"]["paused_at"] is not None and paused.json()["clock"]["ends_at"] is None
        assert await lobby_paused_at(platform, t) == paused.json()["clock"]["paused_at"]  # the lobby's card says so
        again = await platform.post(f"{path}/pause", {"reason": "Database failover"}, OPERATOR)
        assert (again.status_code, again.json()["code"]) == (409, "tournament_already_paused")

        async def published_pause() -> bool:  # through the outbox: published after the answer, not with it
            return count(events.TournamentPaused) >= 1

        await platform.until(published_pause)
        assert [e.reason for e in platform.events(events.TournamentPaused)] == ["Database failover"]

        await platform.bots.release()

        async def hand_over() -> bool:
            return count(table_events.HandCompleted) >= 1

        await platform.until(hand_over)
        await platform.tick()  # the director's clock looks once more: nothing is due while paused
        assert count(table_events.StartHand) == 1  # the hand finished; no new one was dealt

        resumed = await platform.post(f"{path}/resume", None, OPERATOR)
        assert resumed.status_code == 200, resumed.text
        assert resumed.json()["clock"]["paused_at"] is None
        assert await lobby_paused_at(platform, t) is None

        async def published_resumption() -> bool:
            return count(events.TournamentResumed) >= 1

        await platform.until(published_resumption)
        [event] = platform.events(events.TournamentResumed)
        assert event.tournament_id == t

        async def dealing_again() -> bool:
            return count(table_events.StartHand) >= 2

        await platform.until(dealing_again)
        not_paused = await platform.post(f"{path}/resume", None, OPERATOR)
        assert (not_paused.status_code, not_paused.json()["code"]) in (
            (409, "tournament_not_paused"),
            (409, "tournament_not_running"),
        )


async def test_only_a_running_tournament_is_paused(tmp_path: Path) -> None:
    async with running(tmp_path) as platform:
        t = (await platform.create({"template": "six_max_sit_and_go", "name": "Six", "buy_in": PRICE}))["tournament_id"]
        answer = await platform.post(f"/internal/v1/tournaments/{t}/pause", {"reason": "outage"}, OPERATOR)
        assert (answer.status_code, answer.json()["code"]) == (409, "tournament_not_running")
        short = await platform.post(f"/internal/v1/tournaments/{t}/pause", {"reason": ""}, OPERATOR)
        assert short.status_code == 422
