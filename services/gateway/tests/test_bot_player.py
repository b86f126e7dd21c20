"""A bot plays through the public API of a gateway served on a real port (REST with httpx, streams with
websockets): it registers, finds its table, answers its turns with legal actions and stops when the
tournament ends. The director is faked; the table's events are put on the gateway's bus by the test."""

import asyncio
import random
import socket
from collections.abc import AsyncIterator
from typing import Any

import pytest
import uvicorn
from fake_services import FakeServices, ok, problem
from gateway.app import create_app
from gateway.bots.api import Credentials, PublicApi
from gateway.bots.crew import BotCrew
from gateway.bots.player import BotPlayer
from gateway.domain.bot_names import house_signature, is_bot
from gateway_test_support import fast_settings
from platform_kit.bus import Envelope, InMemoryBus
from platform_kit.events.base import Event
from platform_kit.events.table import ActionRequested, ContributeToDeck, HandStarted, Level, PlayerAct, SeatedPlayer
from platform_kit.events.tournament import RankedPlayer, TournamentFinished
from platform_kit.testing import eventually


class Served:
    def __init__(self, url: str, bus: InMemoryBus, app: Any) -> None:
        self.url, self.bus, self.app = url, bus, app

    async def publish(self, event: Event) -> None:
        await self.bus.publish(Envelope.wrap(event, producer="test").outgoing(event.TYPE))

    def subscribers(self, channel: str) -> int:
        return len(self.app.state.services.hub._subscribers.get(channel, ()))

    @property
    def house_key(self) -> str:
        key: str = self.app.state.services.context.house_key
        return key

    def house_signature(self, nickname: str) -> str:
        return house_signature(self.house_key, nickname)


@pytest.fixture
async def served(database_url: str, services: FakeServices) -> AsyncIterator[Served]:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    bus = InMemoryBus()
    app = create_app(
        fast_settings(database_url, migrate_on_start=False), bus=bus, services_transport=services.transport()
    )
    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning"))
    task = asyncio.create_task(server.serve())
    while not server.started:  # noqa: ASYNC110 - uvicorn offers no event to wait on
        await asyncio.sleep(0.01)
    try:
        yield Served(f"http://127.0.0.1:{port}", bus, app)
    finally:
        server.should_exit = True
        await task


async def test_a_bot_registers_plays_its_turns_legally_and_stops_at_the_end(
    served: Served, services: FakeServices
) -> None:
    services.on(
        "tournament-director", "POST", r"/internal/v1/tournaments/snd-1/registrations", ok({"registered": 2}, 201)
    )
    services.on(
        "tournament-director",
        "GET",
        r"/internal/v1/players/.*/tournaments",
        ok([{"tournament_id": "snd-1", "table_id": "t-1"}]),
    )
    api = PublicApi(served.url)
    nickname = "Bot_00000001"
    await api.sign_up(Credentials(nickname, "a bot's password"), house_signature=served.house_signature(nickname))
    bot = BotPlayer(api, random.Random(7), think_seconds=(0, 0))
    await bot.register("snd-1")
    [registration] = services.to("tournament-director")
    assert registration.body["player_id"] == api.player_id and registration.header("Idempotency-Key")
    playing = asyncio.create_task(bot.play("snd-1"))

    async def seated() -> bool:
        return served.subscribers("table:t-1") == 1 and served.subscribers("tournament:snd-1") == 1

    await eventually(seated)

    async def contributions() -> list[dict[str, Any]]:
        return [e.payload for _, e in served.bus.published if e.type == ContributeToDeck.TYPE]

    [joined] = await eventually(contributions)  # for the table's next hand, as soon as it joins
    me = SeatedPlayer(seat=2, player_id=api.player_id, stack=1500)
    started = HandStarted(
        table_id="t-1",
        tournament_id="snd-1",
        hand_id="h-1",
        hand_no=1,
        button_seat=2,
        level=Level(small_blind=10, big_blind=20),
        seats=[me],
        deck_commitment="a" * 64,
        next_deck_commitment="b" * 64,
    )
    await served.publish(started)

    async def two() -> list[dict[str, Any]]:
        found = await contributions()
        return found if len(found) == 2 else []

    [_, following] = await eventually(two)  # and for the hand after each hand it is dealt in
    for sent in (joined, following):  # 32 random bytes of the system's generator, as the bot's own player
        assert sent["player_id"] == api.player_id and sent["table_id"] == "t-1"
        assert len(sent["value"]) == 64 and int(sent["value"], 16) >= 0
    assert joined["value"] != following["value"]
    await served.publish(
        ActionRequested(
            table_id="t-1",
            hand_id="h-1",
            seat=2,
            player_id=api.player_id,
            deadline="2026-03-01T12:00:20Z",
            time_bank_seconds=30,
            can_check=True,
            call_amount=0,
            min_raise_to=20,
            max_raise_to=1500,
        )
    )

    async def acted() -> list[dict[str, Any]]:
        return [e.payload for _, e in served.bus.published if e.type == PlayerAct.TYPE]

    [action] = await eventually(acted)
    assert action["player_id"] == api.player_id and action["hand_id"] == "h-1"
    assert action["action"] == "check" or 20 <= action["amount"] <= 1500
    finished = TournamentFinished(
        tournament_id="snd-1",
        kind="sit_and_go",
        currency="EUR",
        finished_at="2026-03-01T12:30:00+00:00",
        entrants=2,
        prize_pool_cents=800,
        prize_pool_from_entries_cents=800,
        guarantee_overlay_cents=0,
        ranking=[RankedPlayer(player_id=api.player_id, position=1, prize_cents=800)],
    )
    await served.publish(finished)
    outcome = await asyncio.wait_for(playing, 10)
    assert (outcome.position, outcome.prize_cents, outcome.actions, outcome.tables) == (1, 800, 1, ["t-1"])
    await api.aclose()


async def test_the_house_crew_signs_up_its_bots_although_their_prefix_is_reserved(
    served: Served, services: FakeServices
) -> None:
    """Bots sign up through the public sign-up like anyone; their `Bot_` names pass with the house's signature."""
    services.on("wallet", "GET", r"/internal/v1/players/.*/accounts", ok({"accounts": [{"available": 10_000}]}))
    registrations = r"/internal/v1/tournaments/snd-1/registrations"
    services.on("tournament-director", "POST", registrations, problem(409, "registration_closed"))
    crew = BotCrew(served.url, random.Random(5), house_key=served.house_key)
    try:
        assert await crew.fill("snd-1", 1) == []  # signed up and credited, then refused a seat (as scripted)
    finally:
        await crew.aclose()
    [registration] = services.to("tournament-director")
    player_id = registration.body["player_id"]
    nicknames = await served.app.state.services.players.nicknames([player_id])
    assert is_bot(nicknames[player_id])
