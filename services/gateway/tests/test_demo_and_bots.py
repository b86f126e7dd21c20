"""The demo's welcome credit, the house bots' trigger, and the bots' decisions."""

import asyncio
import random
from collections.abc import AsyncIterator
from typing import Any

import pytest
from fake_services import FakeServices, ok
from gateway.bots.strategy import choose
from gateway.domain.bot_names import is_bot
from gateway.service.house_bots import HouseBots
from gateway_test_support import Driver, fast_settings, running
from hypothesis import given
from hypothesis import strategies as st
from platform_kit.bus import Envelope
from platform_kit.clock import FrozenClock
from platform_kit.events.tournament import PlayerRegistered
from platform_kit.testing import eventually


@pytest.fixture
async def demo(database_url: str, clock: FrozenClock, services: FakeServices) -> AsyncIterator[Driver]:
    settings = fast_settings(database_url, migrate_on_start=False, demo_welcome_credit_cents=10_000)
    async with running(settings, clock, services.transport()) as started:
        yield started


async def test_a_new_demo_player_gets_the_welcome_credit_once(demo: Driver, services: FakeServices) -> None:
    services.on("wallet", "POST", r".*", ok({"ok": True}, 201))
    mario = await demo.player_session("Mario")
    player_id = mario["principal"]["id"]

    async def paid() -> list[Any]:
        return [c for c in services.to("wallet") if c.path.endswith("/deposits")]

    [deposit] = await eventually(paid)
    assert deposit.path == f"/internal/v1/partner/players/{player_id}/deposits"
    assert deposit.body == {"currency": "EUR", "amount": 10_000, "reference": "demo welcome credit"}
    assert deposit.header("Idempotency-Key") == f"gateway:demo-credit:{player_id}"
    assert deposit.header("X-Concessionaire-Id") == mario["principal"]["concessionaire_id"]


async def test_players_of_other_concessionaires_get_no_credit(demo: Driver, services: FakeServices) -> None:
    services.on("wallet", "POST", r".*", ok({"ok": True}, 201))
    room = await demo.concessionaire("room-x")
    operator = await demo.operator_token(room, "op@x.example")
    await demo.call(
        "POST",
        "/api/v1/players",
        token=operator,
        json={
            "nickname": "Elsewhere",
            "email": "e@x.example",
            "date_of_birth": "1980-01-01",
            "password": "long enough pw",
        },
        expect=201,
    )
    await demo.player_session("Mario")  # a demo player, so that there is something to wait for
    await eventually(lambda: _deposits(services))
    await asyncio.sleep(0.05)
    assert len(await _deposits(services)) == 1


async def _deposits(services: FakeServices) -> list[Any]:
    return [c for c in services.to("wallet") if c.path.endswith("/deposits")]


class RecordingCrew:
    def __init__(self) -> None:
        self.filled: list[tuple[str, int]] = []

    async def fill(self, tournament_id: str, seats: int) -> list[Any]:
        self.filled.append((tournament_id, seats))
        await asyncio.Event().wait()  # plays until cancelled
        return []

    async def aclose(self) -> None:
        return None


async def test_house_bots_fill_a_sit_and_go_a_person_registered_for(driver: Driver, services: FakeServices) -> None:
    sit_and_go = {"kind": "sit_and_go", "status": "registering", "max_players": 3, "registered": 1}
    services.on("tournament-director", "GET", r"/v1/tournaments/snd-1", ok(sit_and_go))
    crew = RecordingCrew()
    bots = HouseBots(driver.services.clients.tournament_director, crew)  # type: ignore[arg-type]
    mario = await driver.player_session("Mario")
    worker = asyncio.create_task(bots.run())
    try:
        for player_id in (mario["principal"]["id"], mario["principal"]["id"]):
            event = PlayerRegistered(tournament_id="snd-1", player_id=player_id, entry="buy_in", registered=1)
            async with driver.services.context.db.transaction() as session:
                await bots.registered(session, Envelope.wrap(event, producer="tournament-director"))

        async def filled() -> list[tuple[str, int]]:
            await asyncio.sleep(0.01)
            return crew.filled if len(crew.filled) >= 2 else []

        # Two free seats: two bots, and a second registration does not send more while they are on their way.
        assert await eventually(filled) == [("snd-1", 1), ("snd-1", 1)]
    finally:
        worker.cancel()
        await asyncio.gather(worker, return_exceptions=True)


def test_bot_nicknames_are_recognised() -> None:
    assert is_bot("Bot_1a2b3c4d") and not is_bot("Mario")


action_requests = st.fixed_dictionaries(
    {"can_check": st.booleans(), "call_amount": st.integers(0, 5000)},
    optional={"min_raise_to": st.integers(1, 5000), "max_raise_to": st.integers(1, 10_000)},
)


@given(request=action_requests, seed=st.integers(0, 2**32))
def test_bot_decisions_are_always_legal(request: dict[str, Any], seed: int) -> None:
    """Checking when free (never folding then), otherwise folding or calling; bets and raises only when offered,
    within min_raise_to..max_raise_to."""
    decision = choose(request, random.Random(seed), aggression=0.5)
    low, high = request.get("min_raise_to"), request.get("max_raise_to")
    if decision.action in ("bet", "raise"):
        assert low is not None and high is not None and low <= (decision.amount or 0) <= high
    elif request["can_check"]:
        assert decision.action == "check"
    else:
        assert decision.action in ("fold", "call")
