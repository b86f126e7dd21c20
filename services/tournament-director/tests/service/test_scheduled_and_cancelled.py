"""Scheduled tournaments (P-3.2) and cancellations (P-3.2, P-10) through the real wallet and table engine."""

from __future__ import annotations

from datetime import timedelta
from pathlib import Path

from director_harness import OPERATOR, START, running
from platform_kit.events import tournament as events
from tournament_director.domain.payouts import default_schedule, payout_amounts

PRICE = {"prize_part_cents": 900, "fee_cents": 100}
FUNDS = 5_000


def scheduled(name: str, template: str = "scheduled_mtt", **fields: object) -> dict[str, object]:
    starts_at = (START + timedelta(hours=1)).isoformat()
    price = {} if template == "freeroll" else {"buy_in": PRICE}
    return {"template": template, "name": name, **price, "starts_at": starts_at, **fields}


async def test_p3_2_below_the_minimum_at_the_start_time_it_is_cancelled_and_every_buy_in_refunded(
    tmp_path: Path,
) -> None:
    async with running(tmp_path) as platform:
        t = (await platform.create(scheduled("Evening")))["tournament_id"]
        for player in ("ann", "bob", "cid"):
            await platform.fund(player, FUNDS)
            assert (await platform.register(t, player)).status_code == 201
        await platform.tick(timedelta(minutes=59))
        assert (await platform.tournament(t))["status"] == "registering"

        await platform.tick(timedelta(minutes=1))

        cancelled = await platform.settled(t)
        assert (cancelled["status"], cancelled["end_reason"]) == ("cancelled", "below_minimum")
        for player in ("ann", "bob", "cid"):
            assert await platform.balance(player) == FUNDS
        assert await platform.escrow(t) == 0
        [event] = platform.events(events.TournamentCancelled)
        assert sorted((r.player_id, r.cash_cents) for r in event.refunds) == [
            ("ann", 1_000),
            ("bob", 1_000),
            ("cid", 1_000),
        ]
        [settled] = platform.events(events.SettlementCompleted)
        assert settled.outcome == "cancelled" and sum(p.cash_cents for p in settled.payments) == 3_000
        assert not platform.events(events.TournamentStarted)


async def test_p3_2_p9_2_a_scheduled_freeroll_starts_at_its_time_and_pays_the_guarantee_by_the_seed_table(
    tmp_path: Path,
) -> None:
    """Ten players on two tables (P-6.1). The concessionaire buys each a 0.40+0.10 entry at the start (its prize
    part funds the pool, P-9.2); the 10.00 guarantee tops the 4.00 collected up (P-8.3); 50/30/20 (P-8.4)."""
    players = [f"p{n:02d}" for n in range(1, 11)]
    async with running(tmp_path) as platform:
        t = (
            await platform.create(scheduled("Freeroll", template="freeroll", guarantee_cents=1_000), headers=OPERATOR)
        )["tournament_id"]
        early = await platform.post(f"/internal/v1/tournaments/{t}/start", headers=OPERATOR)
        assert early.status_code == 409 and early.json()["code"] == "not_enough_players"
        for player in players:
            assert (await platform.register(t, player)).json()["entry"] == "freeroll"

        await platform.tick(timedelta(hours=1))

        finished = await platform.settled(t)
        assert finished["status"] == "finished"
        [start] = platform.events(events.TournamentStarted)
        assert start.players == 10 and len(start.tables) == 2
        [result] = platform.events(events.TournamentFinished)
        assert (result.prize_pool_from_entries_cents, result.guarantee_overlay_cents) == (400, 600)
        expected = payout_amounts(1_000, default_schedule(10))
        assert expected == (500, 300, 200)
        assert tuple(ranked.prize_cents for ranked in result.ranking[:3]) == expected
        for ranked in result.ranking:
            assert await platform.balance(ranked.player_id) == ranked.prize_cents
        assert await platform.escrow(t) == 0 and await platform.reconciled()


async def test_p9_3_a_bonus_freeroll_pays_its_prizes_as_bonus_money_from_the_concessionaire(tmp_path: Path) -> None:
    """No sponsored entries (P-9.2 asks for them only for cash prizes): the 10.00 guarantee is the prize pool,
    paid by the schedule (P-9.3) from the concessionaire straight to each winner's bonus money, never through
    the escrow. Nobody gets withdrawable cash."""
    players = [f"p{n:02d}" for n in range(1, 11)]
    async with running(tmp_path) as platform:
        body = scheduled("Bonus", template="freeroll", guarantee_cents=1_000, freeroll={"prize_form": "bonus"})
        t = (await platform.create(body, headers=OPERATOR))["tournament_id"]
        for player in players:
            assert (await platform.register(t, player)).json()["entry"] == "freeroll"

        await platform.tick(timedelta(hours=1))

        await platform.settled(t)
        [result] = platform.events(events.TournamentFinished)
        assert (result.prize_pool_cents, result.prize_pool_from_entries_cents) == (1_000, 0)
        expected = payout_amounts(1_000, default_schedule(10))
        assert tuple(ranked.prize_cents for ranked in result.ranking[:3]) == expected
        for ranked in result.ranking:
            assert await platform.balance(ranked.player_id, kind="bonus") == ranked.prize_cents
            assert await platform.balance(ranked.player_id) == 0
        [settled] = platform.events(events.SettlementCompleted)
        assert sorted(p.bonus_cents for p in settled.payments) == sorted(expected)
        assert all(p.cash_cents == 0 for p in settled.payments) and settled.guarantee_overlay_cents == 0
        assert await platform.escrow(t) == 0 and await platform.reconciled()


async def test_p10_cancellation_mid_tournament_refunds_through_the_wallet(tmp_path: Path) -> None:
    """Nine players at 9+1, prizes 65/35: cancelled after some players are out, with a hand in progress (void).
    Players still in get back what they paid plus equal shares of the eliminated players' prize parts (P-10.5),
    or the P-10.6 amounts when as few players are left as prizes; nothing created or lost (P-10.10)."""
    players = [f"p{n}" for n in range(1, 10)]
    async with running(tmp_path) as platform:
        t = (await platform.create({"template": "nine_max_sit_and_go", "name": "Nine", "buy_in": PRICE}))[
            "tournament_id"
        ]
        platform.bots.hold_after_eliminations = 2
        for player in players:
            await platform.fund(player, FUNDS)
            await platform.register(t, player)

        async def stalled() -> bool:
            return platform.bots.held is not None and bool(platform.bots.held)

        await platform.until(stalled)
        eliminated = {e.player_id for e in platform.events(events.PlayerEliminated)}
        left = len(players) - len(eliminated)

        preview = await platform.get(f"/internal/v1/tournaments/{t}/cancellation-preview", OPERATOR)
        answer = await platform.post(f"/internal/v1/tournaments/{t}/cancellation", {"reason": "server fault"}, OPERATOR)

        assert answer.status_code == 200, answer.text
        assert answer.json()["rule"] == ("P-10.5" if left > 2 else "P-10.6")
        # The preview was the cancellation's own computation, amounts included (the tables were held meanwhile).
        assert preview.status_code == 200, preview.text
        assert (preview.json()["rule"], preview.json()["refunds"]) == (answer.json()["rule"], answer.json()["refunds"])
        assert preview.json()["total_cash_cents"] == sum(r["cash_cents"] for r in answer.json()["refunds"])
        await platform.settled(t)
        [cancelled] = platform.events(events.TournamentCancelled)
        refunds = {r.player_id: r.cash_cents for r in cancelled.refunds}
        assert {r["player_id"]: r["cash_cents"] for r in answer.json()["refunds"]} == refunds
        [settled] = platform.events(events.SettlementCompleted)
        assert {p.player_id: p.cash_cents for p in settled.payments} == refunds
        assert sum(refunds.values()) == 8_100 + 100 * left  # every prize part, and the fees of the players still in
        for player in players:
            assert await platform.balance(player) == FUNDS - 1_000 + refunds.get(player, 0)
            if player not in eliminated:
                assert refunds[player] >= 1_000  # what they paid, in full (P-10.11)
        if left > 2:
            assert not eliminated & refunds.keys()  # P-10.5: eliminated players get nothing
        assert await platform.escrow(t) == 0 and await platform.reconciled()
        again = await platform.post(f"/internal/v1/tournaments/{t}/cancellation", {"reason": "again"}, OPERATOR)
        assert again.status_code == 200 and again.json()["reason"] == "server fault"


async def test_p10_cancelling_before_the_start_refunds_every_registration(tmp_path: Path) -> None:
    async with running(tmp_path) as platform:
        t = (await platform.create({"template": "six_max_sit_and_go", "name": "Six", "buy_in": PRICE}))["tournament_id"]
        for player in ("ann", "bob"):
            await platform.fund(player, FUNDS)
            await platform.register(t, player)
        other = {"X-Principal-Role": "operator", "X-Principal-Id": "op-2", "X-Concessionaire-Id": "c2"}
        forbidden = await platform.post(f"/internal/v1/tournaments/{t}/cancellation", {"reason": "mine"}, other)
        assert forbidden.status_code == 403
        preview_path = f"/internal/v1/tournaments/{t}/cancellation-preview"
        assert (await platform.get(preview_path, other)).status_code == 403
        preview = (await platform.get(preview_path, OPERATOR)).json()
        assert (preview["rule"], preview["total_cash_cents"]) == ("P-10", 2_000)
        assert {r["player_id"]: r["cash_cents"] for r in preview["refunds"]} == {"ann": 1_000, "bob": 1_000}

        answer = await platform.post(f"/internal/v1/tournaments/{t}/cancellation", {"reason": "no interest"}, OPERATOR)

        assert answer.status_code == 200 and answer.json()["status"] == "cancelled"
        await platform.settled(t)
        assert [await platform.balance(p) for p in ("ann", "bob")] == [FUNDS, FUNDS]
        # Every registration route says the tournament was cancelled, not "closed" or "already started".
        late = await platform.register(t, "cid")
        left = await platform.unregister(t, "ann")
        assert (late.status_code, late.json()["code"]) == (409, "tournament_cancelled")
        assert (left.status_code, left.json()["code"]) == (409, "tournament_cancelled")
        over = await platform.get(preview_path, OPERATOR)
        assert (over.status_code, over.json()["code"]) == (409, "not_cancellable")
