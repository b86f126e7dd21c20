"""Rebuys paid through the wallet (P-4) and sanctions from the rating service (P-12.5)."""

from __future__ import annotations

import uuid
from datetime import timedelta
from pathlib import Path

from director_harness import NEVER, player_headers, running
from platform_kit.events import rating as rating_events
from platform_kit.events import tournament as events
from platform_kit.events.rating import SanctionKind
from platform_kit.testing import eventually

PRICE = {"prize_part_cents": 900, "fee_cents": 100}
FUNDS = 5_000
REBUY = {"price": PRICE, "chips": 1_500, "max_rebuys": 1, "last_level": 3}


async def test_p4_2_p4_4_a_rebuy_is_paid_through_the_wallet_once_and_grows_the_prize_pool(tmp_path: Path) -> None:
    async with running(tmp_path) as platform:
        t = (
            await platform.create(
                {"template": "heads_up_sit_and_go", "name": "HU rebuy", "buy_in": PRICE, "rebuy": REBUY}
            )
        )["tournament_id"]
        for player in ("ann", "bob"):
            await platform.fund(player, FUNDS)
            await platform.register(t, player)

        async def offered() -> list[events.RebuyOffered]:
            return platform.events(events.RebuyOffered)

        [offer] = await platform.until(offered)
        busted, other = offer.player_id, ({"ann", "bob"} - {offer.player_id}).pop()
        refused = await platform.post(
            f"/internal/v1/tournaments/{t}/rebuys", {"player_id": other}, player_headers(other)
        )
        assert refused.status_code == 409 and refused.json()["reason"] == "not_out_of_chips"
        key = uuid.uuid4().hex

        bought = await platform.post(
            f"/internal/v1/tournaments/{t}/rebuys", {"player_id": busted}, player_headers(busted), key
        )
        retried = await platform.post(
            f"/internal/v1/tournaments/{t}/rebuys", {"player_id": busted}, player_headers(busted), key
        )

        assert bought.status_code == 200, bought.text
        assert (
            bought.json()
            == retried.json()
            == {
                "tournament_id": t,
                "player_id": busted,
                "kind": "rebuy",
                "chips": 1_500,
                "price_cents": 1_000,
            }
        )
        assert await platform.balance(busted) == FUNDS - 2_000  # the retry with the same key charged nothing
        reused = await platform.post(
            f"/internal/v1/tournaments/{t}/addons", {"player_id": busted}, player_headers(busted), key
        )
        assert reused.status_code == 409 and reused.json()["code"] == "idempotency_key_reused"

        async def ended_or_offered_again() -> bool:
            return (await platform.tournament(t))["status"] == "finished" or len(
                platform.events(events.RebuyOffered)
            ) > 1

        await platform.until(ended_or_offered_again)
        if (await platform.tournament(t))["status"] != "finished":
            await platform.tick(timedelta(seconds=NEVER + 1))  # the second offer lapses: declined (P-4.2)
        await platform.settled(t)
        [purchased] = platform.events(events.EntryPurchased)
        assert (purchased.player_id, purchased.prize_pool_cents) == (busted, 2_700)
        [result] = platform.events(events.TournamentFinished)
        assert result.prize_pool_cents == 2_700 == result.ranking[0].prize_cents
        assert await platform.balance("ann") + await platform.balance("bob") == 2 * FUNDS - 3_000 + 2_700
        assert await platform.escrow(t) == 0 and await platform.reconciled()


def sanction(
    player: str, kind: SanctionKind, tournament_id: str | None = None, forfeit: bool = False
) -> rating_events.SanctionDecided:
    return rating_events.SanctionDecided(
        sanction_id=uuid.uuid4().hex,
        player_id=player,
        kind=kind,
        tournament_id=tournament_id,
        ban_scope="room_and_network" if kind.endswith("ban") else None,
        starts_at="2025-06-01T18:00:00Z",
        ends_at=None,
        forfeit_entries=forfeit,
        reason="test",
    )


async def test_p12_5_a_disqualified_player_leaves_play_and_ranks_below_everyone(tmp_path: Path) -> None:
    players = [f"p{n}" for n in range(1, 7)]
    async with running(tmp_path) as platform:
        t = (await platform.create({"template": "six_max_sit_and_go", "name": "Six", "buy_in": PRICE}))["tournament_id"]
        platform.bots.hold()  # the first hand stalls: the disqualification lands during it
        for player in players:
            await platform.fund(player, FUNDS)
            await platform.register(t, player)

        async def dealt() -> bool:
            return bool(platform.bots.held)

        await eventually(dealt, timeout=10)

        await platform.publish(sanction("p3", "tournament_disqualification", t))

        async def applied() -> bool:
            return bool(platform.events(events.PlayerDisqualified))

        await eventually(applied, timeout=10)
        await platform.bots.release()
        await platform.settled(t)
        [result] = platform.events(events.TournamentFinished)
        last = result.ranking[-1]
        assert (last.player_id, last.position, last.disqualified, last.prize_cents) == ("p3", 6, True, 0)
        assert not any(ranked.disqualified for ranked in result.ranking[:-1])
        assert sum(ranked.prize_cents for ranked in result.ranking) == 5_400
        assert await platform.balance("p3") == FUNDS - 1_000
        assert await platform.escrow(t) == 0


async def test_p12_5_a_ban_cancels_pending_registrations_refunded_unless_the_entry_is_forfeit(tmp_path: Path) -> None:
    async with running(tmp_path) as platform:
        t = (await platform.create({"template": "six_max_sit_and_go", "name": "Six", "buy_in": PRICE}))["tournament_id"]
        for player in ("ann", "bob", "cid"):
            await platform.fund(player, FUNDS)
            await platform.register(t, player)

        await platform.publish(sanction("ann", "permanent_ban"))
        await platform.publish(sanction("bob", "pending_tournaments_disqualification", forfeit=True))

        async def both_out() -> list[events.PlayerUnregistered]:
            found = platform.events(events.PlayerUnregistered)
            return found if len(found) == 2 else []

        left = {event.player_id: event for event in await eventually(both_out, timeout=10)}
        assert (left["ann"].reason, left["ann"].refunded_cents, left["ann"].forfeited) == ("sanction", 1_000, False)
        assert (left["bob"].refunded_cents, left["bob"].forfeited) == (0, True)
        assert await platform.balance("ann") == FUNDS
        assert await platform.balance("bob") == FUNDS - 1_000
        assert (await platform.tournament(t))["registered"] == 1


async def test_p4_2_a_rebuy_offer_not_answered_in_time_is_declined_and_the_player_is_out(tmp_path: Path) -> None:
    async with running(tmp_path) as platform:
        t = (
            await platform.create(
                {"template": "heads_up_sit_and_go", "name": "HU rebuy", "buy_in": PRICE, "rebuy": REBUY}
            )
        )["tournament_id"]
        for player in ("ann", "bob"):
            await platform.fund(player, FUNDS)
            await platform.register(t, player)

        async def offered() -> list[events.RebuyOffered]:
            return platform.events(events.RebuyOffered)

        [offer] = await platform.until(offered)
        await platform.tick(timedelta(seconds=NEVER - 1))
        assert (await platform.tournament(t))["status"] == "running"  # still waiting for the answer

        await platform.tick(timedelta(seconds=1))

        await platform.settled(t)
        [eliminated] = platform.events(events.PlayerEliminated)
        assert (eliminated.player_id, eliminated.position) == (offer.player_id, 2)
        assert await platform.balance(offer.player_id) == FUNDS - 1_000
        assert not platform.events(events.EntryPurchased)
