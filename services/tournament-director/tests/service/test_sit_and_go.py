"""Whole sit'n'gos through the real wallet, rating and table engine: registration, play, payouts, ledger."""

from __future__ import annotations

from datetime import timedelta
from pathlib import Path

import pytest
from director_harness import LosesAnswers, running
from platform_kit.events import tournament as events
from platform_kit.testing import eventually
from tournament_director.domain.payouts import default_schedule, payout_amounts
from tournament_director.service import lifecycle
from tournament_director.service.money import drive_waiting

PRICE = {"prize_part_cents": 900, "fee_cents": 100}
FUNDS = 5_000


async def test_p3_1_p8_5_heads_up_sit_and_go_starts_when_full_and_pays_the_winner(tmp_path: Path) -> None:
    async with running(tmp_path) as platform:
        created = await platform.create({"template": "heads_up_sit_and_go", "name": "HU", "buy_in": PRICE})
        t = created["tournament_id"]
        assert created["status"] == "registering"
        assert created["payout_schedule"] == {"entrants": 2, "shares_bps": [10_000]}
        await platform.fund("ann", FUNDS)
        assert (await platform.register(t, "ann")).json()["registered"] == 1
        assert (await platform.tournament(t))["status"] == "registering"
        await platform.fund("bob", FUNDS)
        assert (await platform.register(t, "bob")).status_code == 201

        finished = await platform.settled(t)

        assert finished["status"] == "finished" and finished["prize_pool_cents"] == 1_800
        [result] = platform.events(events.TournamentFinished)
        winner, loser = (ranked.player_id for ranked in result.ranking)
        assert [ranked.prize_cents for ranked in result.ranking] == [1_800, 0]
        assert await platform.balance(winner) == FUNDS - 1_000 + 1_800
        assert await platform.balance(loser) == FUNDS - 1_000
        assert await platform.escrow(t) == 0
        assert await platform.reconciled()
        [eliminated] = platform.events(events.PlayerEliminated)
        assert (eliminated.player_id, eliminated.position) == (loser, 2)
        [settled] = platform.events(events.SettlementCompleted)
        assert [(p.player_id, p.cash_cents) for p in settled.payments] == [(winner, 1_800)]
        standings = (await platform.director.get(f"/v1/tournaments/{t}/standings")).json()["players"]
        assert [(p["player_id"], p["position"]) for p in standings] == [(winner, 1), (loser, 2)]


async def test_p8_3_p8_4_p8_5_p8_7_nine_player_sit_and_go_pays_the_schedule_with_overlay_and_tax(
    tmp_path: Path,
) -> None:
    """Nine entries of 9+1 collect 81.00; the 100.00 guarantee adds a 19.00 overlay; 65/35 (P-8.4) pays 65.00
    and 35.00; 3% tax on the 90.00 base is accrued from the margin (P-8.7)."""
    players = [f"p{n}" for n in range(1, 10)]
    async with running(tmp_path, tax_rate_bps=300) as platform:
        created = await platform.create(
            {"template": "nine_max_sit_and_go", "name": "Nine", "buy_in": PRICE, "guarantee_cents": 10_000}
        )
        t = created["tournament_id"]
        for player in players:
            await platform.fund(player, FUNDS)
            assert (await platform.register(t, player)).status_code == 201
        assert (await platform.register(t, "late")).status_code in (409, 403)

        finished = await platform.settled(t)

        amounts = payout_amounts(10_000, default_schedule(9))
        assert amounts == (6_500, 3_500)
        [result] = platform.events(events.TournamentFinished)
        assert result.prize_pool_cents == 10_000 and result.guarantee_overlay_cents == 1_900
        assert result.prize_pool_from_entries_cents == 8_100
        assert sorted(ranked.position for ranked in result.ranking) == list(range(1, 10))
        prizes = {ranked.player_id: ranked.prize_cents for ranked in result.ranking}
        assert sorted(prizes.values(), reverse=True)[:2] == list(amounts)
        for player in players:
            assert await platform.balance(player) == FUNDS - 1_000 + prizes[player]
        assert await platform.escrow(t) == 0
        [settled] = platform.events(events.SettlementCompleted)
        assert settled.guarantee_overlay_cents == 1_900 and settled.tax_cents == 270
        assert sum(p.cash_cents for p in settled.payments) == 10_000
        eliminated = platform.events(events.PlayerEliminated)
        assert sorted(e.player_id for e in eliminated) == sorted(p for p in players if prizes[p] != amounts[0])
        assert finished["settled"] and await platform.reconciled()


async def test_p3_unregistration_before_the_start_refunds_the_whole_buy_in(tmp_path: Path) -> None:
    async with running(tmp_path) as platform:
        t = (await platform.create({"template": "six_max_sit_and_go", "name": "Six", "buy_in": PRICE}))["tournament_id"]
        await platform.fund("ann", FUNDS)
        await platform.register(t, "ann")
        assert await platform.balance("ann") == FUNDS - 1_000

        left = await platform.unregister(t, "ann")

        assert left.status_code == 200, left.text
        assert left.json()["refunded_cents"] == 1_000
        assert await platform.balance("ann") == FUNDS
        assert await platform.escrow(t) == 0

        async def announced() -> list[events.PlayerUnregistered]:
            return platform.events(events.PlayerUnregistered)  # the outbox relay publishes it after the answer

        [unregistered] = await eventually(announced)
        assert (unregistered.refunded_cents, unregistered.registered, unregistered.reason) == (1_000, 0, "player")
        assert (await platform.tournament(t))["registered"] == 0
        again = await platform.register(t, "ann")  # a new registration: a new wallet key, charged again
        assert again.status_code == 201 and await platform.balance("ann") == FUNDS - 1_000


async def test_registration_without_the_money_is_refused_and_frees_the_seat(tmp_path: Path) -> None:
    async with running(tmp_path) as platform:
        t = (await platform.create({"template": "heads_up_sit_and_go", "name": "HU", "buy_in": PRICE}))["tournament_id"]
        await platform.fund("poor", 500)
        refused = await platform.register(t, "poor")
        assert refused.status_code == 409 and refused.json()["code"] == "insufficient_funds"
        assert (await platform.tournament(t))["registered"] == 0
        await platform.fund("poor", 500)
        assert (await platform.register(t, "poor")).status_code == 201
        assert await platform.balance("poor") == 0


async def test_p11_7_an_ineligible_player_is_refused_by_the_rating_and_never_charged(tmp_path: Path) -> None:
    async with running(tmp_path) as platform:
        restricted = await platform.create(
            {
                "template": "heads_up_sit_and_go",
                "name": "Elite",
                "buy_in": PRICE,
                "access": {"allowed_tiers": ["gruppo_uno"]},
            }
        )
        invitational = await platform.create(
            {
                "template": "heads_up_sit_and_go",
                "name": "Invitational",
                "buy_in": PRICE,
                "access": {"invitation_only": True},
                "invited_player_ids": ["vip"],
            }
        )
        await platform.fund("newbie", FUNDS)
        await platform.fund("vip", FUNDS)

        tier = await platform.register(restricted["tournament_id"], "newbie")
        uninvited = await platform.register(invitational["tournament_id"], "newbie")
        invited = await platform.register(invitational["tournament_id"], "vip")

        assert tier.status_code == 403
        assert (tier.json()["code"], tier.json()["reason"], tier.json()["tier"]) == (
            "not_eligible",
            "tier_not_allowed",
            "ESORDIENTE",
        )
        assert uninvited.status_code == 403 and uninvited.json()["reason"] == "not_invited"
        assert invited.status_code == 201
        assert await platform.balance("newbie") == FUNDS


async def test_money_steps_whose_answer_was_lost_are_completed_with_the_same_key_and_post_once(tmp_path: Path) -> None:
    async with running(tmp_path, wrap_wallet=LosesAnswers) as platform:
        t = (await platform.create({"template": "heads_up_sit_and_go", "name": "HU", "buy_in": PRICE}))["tournament_id"]
        for player in ("ann", "bob"):
            await platform.fund(player, FUNDS)

        first = await platform.register(t, "ann")
        assert first.status_code == 503 and first.json()["code"] == "wallet_unavailable"
        assert await platform.balance("ann") == FUNDS - 1_000  # the wallet did post it
        assert (await platform.tournament(t))["registered"] == 0  # the seat is held, not confirmed
        retried = await platform.register(t, "ann")  # the same registration asked again: the same wallet key
        assert retried.status_code == 201, retried.text
        assert await platform.balance("ann") == FUNDS - 1_000

        await platform.register(t, "bob")
        await platform.settled(t)  # the payouts' answer is lost once too: the money worker makes the call again

        [result] = platform.events(events.TournamentFinished)
        winner, loser = (ranked.player_id for ranked in result.ranking)
        assert await platform.balance(winner) == FUNDS - 1_000 + 1_800
        assert await platform.balance(loser) == FUNDS - 1_000
        assert await platform.escrow(t) == 0 and await platform.reconciled()


async def test_a_request_that_died_with_its_payment_is_completed_by_the_money_worker(tmp_path: Path) -> None:
    async with running(tmp_path, wrap_wallet=LosesAnswers) as platform:
        t = (await platform.create({"template": "six_max_sit_and_go", "name": "Six", "buy_in": PRICE}))["tournament_id"]
        await platform.fund("ann", FUNDS)
        assert (await platform.register(t, "ann")).status_code == 503
        await drive_waiting(platform.service)
        assert (await platform.tournament(t))["registered"] == 0  # still the request's own, for a while

        platform.clock.advance(timedelta(seconds=platform.service.settings.money_retry_seconds))
        await drive_waiting(platform.service)

        assert (await platform.tournament(t))["registered"] == 1
        assert await platform.balance("ann") == FUNDS - 1_000


async def test_p3_1_a_sit_and_go_whose_start_was_lost_after_the_last_payment_starts_at_the_next_clock_pass(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The start follows the last payment's commit (`SitAndGoFilled`, reacted to in its own unit of work): if it
    fails, or the process dies in between, the payment stands, and the clock's pass starts the sit'n'go once the
    reaction is `money_retry_seconds` overdue (issue 19)."""
    async with running(tmp_path) as platform:
        t = (await platform.create({"template": "heads_up_sit_and_go", "name": "HU", "buy_in": PRICE}))["tournament_id"]

        async def lost(*_: object) -> None:
            raise ConnectionError("the process died before starting it")

        with monkeypatch.context() as patched:
            patched.setattr(lifecycle, "on_filled", lost)
            for player in ("ann", "bob"):
                await platform.fund(player, FUNDS)
                assert (await platform.register(t, player)).status_code == 201
        assert (await platform.tournament(t))["status"] == "registering"
        assert await platform.balance("bob") == FUNDS - 1_000, "the payment that filled it is kept"

        await platform.tick()
        assert (await platform.tournament(t))["status"] == "registering", "not overdue yet: its process may be on it"
        await platform.tick(timedelta(seconds=platform.service.settings.money_retry_seconds))
        assert (await platform.tournament(t))["status"] == "running"
        assert (await platform.settled(t))["status"] == "finished"
