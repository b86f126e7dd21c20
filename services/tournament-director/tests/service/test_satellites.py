"""Satellites (P-3.4) through the real wallet and table engine: a six-seat sit'n'go of 4.00+0.40 pools 24.00,
which buys one seat of 20.00+2.00 in a scheduled target and leaves 2.00 in cash for 2nd place. The seat's
price waits in the satellite's escrow until the seat is used, then enters the target exactly as a buy-in."""

from __future__ import annotations

from datetime import timedelta
from pathlib import Path
from typing import Any

from director_harness import START, TOKEN, Platform, player_headers, running
from platform_kit.events import tournament as events

SATELLITE_PRICE = {"prize_part_cents": 400, "fee_cents": 40}
TARGET_PRICE = {"prize_part_cents": 2_000, "fee_cents": 200}
PLAYERS = [f"s{n}" for n in range(1, 7)]
FUNDS = 5_000


async def target(platform: Platform, **fields: Any) -> str:
    body = {
        "template": "scheduled_mtt",
        "name": "Sunday target",
        "buy_in": TARGET_PRICE,
        "starts_at": (START + timedelta(hours=2)).isoformat(),
        **fields,
    }
    return str((await platform.create(body))["tournament_id"])


async def play_satellite(platform: Platform, target_id: str, mode: str) -> tuple[str, str, str]:
    """Create and play the satellite; returns its id, the seat winner and the 2nd."""
    body = {
        "template": "six_max_sit_and_go",
        "name": "Satellite",
        "buy_in": SATELLITE_PRICE,
        "satellite": {"target_tournament_id": target_id, "seat_price": TARGET_PRICE, "prize_mode": mode},
    }
    satellite = str((await platform.create(body))["tournament_id"])
    for player in PLAYERS:
        await platform.fund(player, FUNDS)
        assert (await platform.register(satellite, player)).status_code == 201
    finished = await platform.settled(satellite)
    assert finished["status"] == "finished" and finished["prize_pool_cents"] == 2_400
    [result] = [e for e in platform.events(events.TournamentFinished) if e.tournament_id == satellite]
    [winner] = [ranked for ranked in result.ranking if ranked.seat]
    [second] = [ranked for ranked in result.ranking if ranked.position == 2]
    assert (winner.position, winner.prize_cents, second.prize_cents, second.seat) == (1, 0, 200, False)
    assert await platform.balance(second.player_id) == FUNDS - 440 + 200
    assert await platform.escrow(satellite) == 2_200  # the seat's whole price, until it is used
    return satellite, winner.player_id, second.player_id


async def seats_of(platform: Platform, player: str) -> list[dict[str, Any]]:
    answer = await platform.director.get(
        f"/internal/v1/players/{player}/tickets", headers={"X-Internal-Token": TOKEN, **player_headers(player)}
    )
    assert answer.status_code == 200, answer.text
    return [ticket for ticket in answer.json() if ticket["issued_reason"].startswith("satellite")]


async def registered_in(platform: Platform, target_id: str) -> list[tuple[str, str]]:
    """(player, entry) of the target's registrations the director has made so far, as its events tell."""
    await platform.published()
    found = [e for e in platform.events(events.PlayerRegistered) if e.tournament_id == target_id]
    return [(e.player_id, e.entry) for e in found]


async def assert_entered_as_a_buy_in(platform: Platform, satellite: str, target_id: str, winner: str) -> None:
    assert await platform.escrow(satellite) == 0
    assert await platform.escrow(target_id) == 2_000  # the prize part; the fee went to the concessionaire
    assert await platform.balance(winner) == FUNDS - 440  # the seat cost the winner nothing more
    assert await platform.reconciled()


async def test_p3_4_a_ticket_seat_registers_its_holder_for_free_as_a_paid_buy_in(tmp_path: Path) -> None:
    async with running(tmp_path) as platform:
        target_id = await target(platform)
        satellite, winner, second = await play_satellite(platform, target_id, "ticket")
        [seat] = await seats_of(platform, winner)
        assert (seat["target_tournament_id"], seat["prize_part_cents"], seat["fee_cents"]) == (target_id, 2_000, 200)
        assert await seats_of(platform, second) == []

        entered = await platform.register(target_id, winner, entry="ticket", ticket_code=seat["code"])

        assert entered.status_code == 201, entered.text
        assert entered.json()["entry"] == "ticket"
        await assert_entered_as_a_buy_in(platform, satellite, target_id, winner)
        again = await platform.register(target_id, second, entry="ticket", ticket_code=seat["code"])
        assert again.status_code == 404  # not theirs


async def test_p3_4_a_right_opens_a_target_closed_to_buy_ins(tmp_path: Path) -> None:
    async with running(tmp_path) as platform:
        target_id = await target(platform, direct_buy_in=False)
        satellite, winner, second = await play_satellite(platform, target_id, "free_registration_right")

        refused = await platform.register(target_id, second)
        assert refused.status_code == 403 and refused.json()["code"] == "satellite_entry_only"
        no_seat = await platform.register(target_id, second, entry="satellite")
        assert no_seat.status_code == 404 and no_seat.json()["code"] == "no_satellite_seat"

        entered = await platform.register(target_id, winner, entry="satellite")

        assert entered.status_code == 201, entered.text
        await assert_entered_as_a_buy_in(platform, satellite, target_id, winner)
        assert await registered_in(platform, target_id) == [(winner, "satellite")]


async def test_p3_4_automatic_registration_then_the_targets_cancellation_gives_the_seat_back(
    tmp_path: Path,
) -> None:
    async with running(tmp_path) as platform:
        target_id = await target(platform)
        satellite, winner, _ = await play_satellite(platform, target_id, "automatic_registration")

        await platform.tick()

        assert await registered_in(platform, target_id) == [(winner, "satellite")]
        await assert_entered_as_a_buy_in(platform, satellite, target_id, winner)
        await platform.tick()  # nothing left to register
        assert await registered_in(platform, target_id) == [(winner, "satellite")]

        # P-3.2 / P-10.12: below its minimum at the start the target is cancelled; a satellite entry comes back
        # as a fresh ticket of the target's value, whose prize part stays in the target's escrow.
        await platform.tick(timedelta(hours=2))
        cancelled = await platform.settled(target_id)
        assert cancelled["status"] == "cancelled"
        [event] = [e for e in platform.events(events.TournamentCancelled) if e.tournament_id == target_id]
        assert [(r.player_id, r.cash_cents, r.tickets) for r in event.refunds] == [(winner, 0, 1)]
        assert await platform.escrow(target_id) == 2_000
        assert await platform.reconciled()


async def test_p3_4_a_satellite_names_an_open_target_and_a_seat_at_its_buy_in(tmp_path: Path) -> None:
    async with running(tmp_path) as platform:
        target_id = await target(platform)
        body = {"template": "six_max_sit_and_go", "name": "Satellite", "buy_in": SATELLITE_PRICE}
        for satellite, code in (
            ({"target_tournament_id": "t-nowhere", "seat_price": TARGET_PRICE}, "target_not_found"),
            ({"target_tournament_id": target_id, "seat_price": SATELLITE_PRICE}, "seat_price_not_target_buy_in"),
        ):
            answer = await platform.post(
                "/internal/v1/tournaments",
                {**body, "concessionaire_id": "c1", "satellite": {**satellite, "prize_mode": "ticket"}},
            )
            assert answer.status_code == 422, answer.text
            assert code in {error["code"] for error in answer.json()["errors"]}, answer.json()
        templated = await platform.create(
            {
                "template": "satellite",
                "name": "Scheduled satellite",
                "buy_in": SATELLITE_PRICE,
                "target_tournament_id": target_id,
                "seat_price": TARGET_PRICE,
                "prize_mode": "automatic_registration",
                "starts_at": (START + timedelta(hours=1)).isoformat(),
            }
        )
        assert templated["status"] == "registering"
