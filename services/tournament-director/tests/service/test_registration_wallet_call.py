"""A registration's one wallet call (issue 14): the entry, sent acting for the player's concessionaire — the
wallet opens the player's account in the tournament's currency with it when there is none, and refuses another
concessionaire's player (P-3)."""

from __future__ import annotations

from pathlib import Path

import httpx
from director_harness import CONCESSIONAIRE, TOKEN, running

PRICE = {"prize_part_cents": 900, "fee_cents": 100}
FUNDS = 5_000
PARTNER = {"X-Principal-Role": "partner", "X-Principal-Id": "partner-c1", "X-Concessionaire-Id": CONCESSIONAIRE}


class Recorded(httpx.AsyncBaseTransport):
    """The wallet, with the path and `X-Concessionaire-Id` of every call the director makes to it."""

    def __init__(self, wallet: httpx.AsyncBaseTransport) -> None:
        self.wallet = wallet
        self.calls: list[tuple[str, str | None]] = []

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        self.calls.append((request.url.path, request.headers.get("X-Concessionaire-Id")))
        return await self.wallet.handle_async_request(request)


async def test_p3_a_paid_registration_makes_one_wallet_call_acting_for_the_players_concessionaire(
    tmp_path: Path,
) -> None:
    recorded: list[Recorded] = []

    def record(wallet: httpx.AsyncBaseTransport) -> httpx.AsyncBaseTransport:
        recorded.append(Recorded(wallet))
        return recorded[0]

    async with running(tmp_path, wrap_wallet=record) as platform:
        t = (await platform.create({"template": "six_max_sit_and_go", "name": "Six", "buy_in": PRICE}))["tournament_id"]
        await platform.fund("ann", FUNDS)

        registered = await platform.register(t, "ann")

        assert registered.status_code == 201, registered.text
        assert recorded[0].calls == [(f"/internal/v1/tournaments/{t}/entries", CONCESSIONAIRE)]
        assert await platform.balance("ann") == FUNDS - 1_000


async def test_p3_a_player_without_an_account_is_refused_insufficient_funds_and_the_seat_freed(
    tmp_path: Path,
) -> None:
    async with running(tmp_path) as platform:
        t = (await platform.create({"template": "heads_up_sit_and_go", "name": "HU", "buy_in": PRICE}))["tournament_id"]

        refused = await platform.register(t, "newcomer")  # never seen by the wallet

        assert (refused.status_code, refused.json()["code"]) == (409, "insufficient_funds")
        assert (await platform.tournament(t))["registered"] == 0
        await platform.fund("newcomer", FUNDS)
        assert (await platform.register(t, "newcomer")).status_code == 201
        assert await platform.balance("newcomer") == FUNDS - 1_000


async def test_p3_a_partner_registering_another_concessionaires_player_is_refused_and_charges_nothing(
    tmp_path: Path,
) -> None:
    async with running(tmp_path) as platform:
        t = (await platform.create({"template": "six_max_sit_and_go", "name": "Six", "buy_in": PRICE}))["tournament_id"]
        await platform.fund("bob", FUNDS, concessionaire="c2")

        refused = await platform.director.post(
            f"/internal/v1/tournaments/{t}/registrations",
            json={"player_id": "bob", "concessionaire_id": CONCESSIONAIRE},
            headers={"X-Internal-Token": TOKEN, "Idempotency-Key": "key-1", **PARTNER},
        )

        assert (refused.status_code, refused.json()["code"]) == (403, "forbidden_concessionaire")
        assert (await platform.tournament(t))["registered"] == 0
        assert await platform.balance("bob") == FUNDS and await platform.escrow(t) == 0
