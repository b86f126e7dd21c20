"""Add-ons paid through the wallet at a break (P-4.3, P-4.4) and a shoot-out sit'n'go played phase by phase
(P-6.4), through the real wallet and table engine."""

from __future__ import annotations

import uuid
from datetime import timedelta
from pathlib import Path

from director_harness import player_headers, running
from platform_kit.events import tournament as events
from platform_kit.testing import eventually
from tournament_director.domain.payouts import default_schedule, payout_amounts
from tournament_director.domain.templates import standard_blinds

PRICE = {"prize_part_cents": 900, "fee_cents": 100}
FUNDS = 5_000
PLAYERS = [f"p{n}" for n in range(1, 7)]
LEVEL = timedelta(minutes=5)


async def test_p4_3_p4_4_an_addon_at_the_break_is_paid_once_and_grows_the_prize_pool(tmp_path: Path) -> None:
    """Six players, a break after level 1 offering one add-on of 1,500 chips for 9+1. Play is held (the
    bots wait) while the clock reaches the break, so the tournament is still running when it comes."""
    blinds = standard_blinds(5).model_dump(mode="json")
    blinds["breaks"] = [{"after_level": 1, "duration_seconds": 300}]
    addon = {"price": PRICE, "chips": 1_500, "max_addons": 1, "at_breaks_after_levels": [1]}
    async with running(tmp_path) as platform:
        body = {"template": "six_max_sit_and_go", "name": "Add-on", "buy_in": PRICE, "blinds": blinds, "addon": addon}
        t = (await platform.create(body))["tournament_id"]
        platform.bots.hold()
        for player in PLAYERS:
            await platform.fund(player, FUNDS)
            assert (await platform.register(t, player)).status_code == 201
        path = f"/internal/v1/tournaments/{t}/addons"
        early = await platform.post(path, {"player_id": "p1"}, player_headers("p1"))
        assert early.status_code == 409, early.text  # no add-on before the break (P-4.3)

        await platform.tick(LEVEL)

        async def offered() -> set[str]:
            return {offer.player_id for offer in platform.events(events.AddonOffered)}

        assert await eventually(offered) == set(PLAYERS)
        [offer] = [o for o in platform.events(events.AddonOffered) if o.player_id == "p1"]
        assert (offer.chips, offer.price_cents) == (1_500, 1_000)
        key = uuid.uuid4().hex
        bought = await platform.post(path, {"player_id": "p1"}, player_headers("p1"), key)
        retried = await platform.post(path, {"player_id": "p1"}, player_headers("p1"), key)
        assert bought.status_code == 200, bought.text
        assert bought.json() == retried.json() and bought.json()["kind"] == "addon"
        second = await platform.post(path, {"player_id": "p1"}, player_headers("p1"))
        assert second.status_code == 409, second.text  # one add-on per player (max_addons)
        assert await platform.balance("p1") == FUNDS - 2_000

        await platform.bots.release()
        await platform.tick(timedelta(minutes=5))  # the break ends: play goes on to the end
        await platform.settled(t)

        [purchased] = platform.events(events.EntryPurchased)
        assert (purchased.player_id, purchased.kind, purchased.prize_pool_cents) == ("p1", "addon", 6_300)
        [result] = platform.events(events.TournamentFinished)
        assert result.prize_pool_cents == 6_300
        assert sorted((r.prize_cents for r in result.ranking), reverse=True)[:2] == list(
            payout_amounts(6_300, default_schedule(6))
        )
        balances = [await platform.balance(player) for player in PLAYERS]
        assert sum(balances) == 6 * FUNDS - 7_000 + 6_300
        assert await platform.escrow(t) == 0 and await platform.reconciled()


async def test_p6_4_a_shootout_plays_each_table_down_to_its_winner_then_regroups_them(tmp_path: Path) -> None:
    """Two tables of two: each plays down to one winner, the first to get there waits (held); the two winners
    then meet at a fresh table (phase 2). Nobody is ever moved to balance tables."""
    async with running(tmp_path) as platform:
        body = {
            "template": "shootout_sit_and_go",
            "name": "Shoot-out",
            "buy_in": PRICE,
            "tables": 2,
            "seats_per_table": 2,
        }
        t = (await platform.create(body))["tournament_id"]
        for player in PLAYERS[:4]:
            await platform.fund(player, FUNDS)
            assert (await platform.register(t, player)).status_code == 201

        await platform.settled(t)

        [started] = platform.events(events.TournamentStarted)
        assert len(started.tables) == 2
        # The table that is down to its winner first waits for the other (the last one need not).
        [held] = platform.events(events.TableHeld)
        assert held.table_id in started.tables
        [phase] = platform.events(events.ShootoutPhaseStarted)
        assert phase.phase == 2 and len(phase.tables) == 1 and phase.tables[0] not in started.tables
        # Only winners move, to be regrouped (one may draw the seat they hold already); never to balance.
        moved = platform.events(events.PlayerMoved)
        assert {(m.to_table_id, m.reason) for m in moved} == {(phase.tables[0], "shootout_regroup")}
        [result] = platform.events(events.TournamentFinished)
        eliminated = platform.events(events.PlayerEliminated)
        # The two players out in phase 1 rank 3rd and 4th; the loser of the final is 2nd.
        assert sorted(e.position for e in eliminated) == [2, 3, 4]
        finalists = set(PLAYERS[:4]) - {e.player_id for e in eliminated if e.position > 2}
        assert len(finalists) == 2 and {m.player_id for m in moved} <= finalists
        assert {e.player_id for e in eliminated if e.position == 2} < finalists
        assert [r.prize_cents for r in result.ranking] == [3_600, 0, 0, 0]  # 2–5 players: winner takes all
        assert await platform.escrow(t) == 0 and await platform.reconciled()
