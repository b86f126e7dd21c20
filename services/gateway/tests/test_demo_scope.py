"""Play money stays in play: the demo concessionaire is off by default outside standalone, and where an operator
turns it on in a deployment, its players (whose money is the welcome credit) may enter only the demo
concessionaire's own tournaments and no totalizator pool — the gateway refuses before anything reaches the
director or the totalizator."""

from collections.abc import AsyncIterator
from typing import Any

import pytest
from fake_services import FakeServices, ok
from gateway.settings import Settings
from gateway_test_support import Driver, fast_settings, running
from platform_kit.clock import FrozenClock

DEPLOYED = {
    "bus_url": "amqp://guest:guest@rabbit.invalid:5672/",
    "jwt_secret": "a-signing-key-generated-for-this-deployment-only",
    "internal_token": "an internal token of this deployment",
}
KEY = "demo-scope-key-1"
PICKS = [["1:0"], ["0:0"], ["2:0"], ["1:1"], ["0:1"], ["other home"], ["3:1"], ["0:2"]]
COUPON = {"currency": "EUR", "amount": 40, "picks": PICKS}


@pytest.fixture
async def deployed(database_url: str, clock: FrozenClock, services: FakeServices) -> AsyncIterator[Driver]:
    """A deployed gateway whose operator chose to run the demo concessionaire."""
    settings = fast_settings(database_url, migrate_on_start=False, demo_concessionaire=True, **DEPLOYED)
    async with running(settings, clock, services.transport()) as started:
        yield started


def test_the_demo_concessionaire_is_on_in_standalone_only_unless_set() -> None:
    assert Settings().demo_concessionaire_on
    assert not Settings.model_validate(DEPLOYED).demo_concessionaire_on
    assert Settings.model_validate({**DEPLOYED, "demo_concessionaire": True}).demo_concessionaire_on
    assert not Settings(demo_concessionaire=False).demo_concessionaire_on


async def test_a_deployed_gateway_creates_no_demo_concessionaire_by_default(
    database_url: str, clock: FrozenClock, services: FakeServices
) -> None:
    async with running(
        fast_settings(database_url, migrate_on_start=False, **DEPLOYED), clock, services.transport()
    ) as gateway:
        listing = await gateway.call("GET", "/api/v1/concessionaires", expect=200)
        assert listing.json() == []
        refused = await gateway.sign_up("Mario", expect=404)
        assert refused.json()["code"] == "concessionaire_not_found"


def organised_by(services: FakeServices, tournament_id: str, concessionaire_id: str | None) -> None:
    page = {"tournament_id": tournament_id, "status": "registering", "concessionaire_id": concessionaire_id}
    services.on("tournament-director", "GET", f"/v1/tournaments/{tournament_id}", ok(page))
    services.on("tournament-director", "POST", r"/internal/v1/tournaments/.*/registrations", ok({"registered": 1}, 201))


async def register(gateway: Driver, player: dict[str, Any], tournament_id: str) -> Any:
    path = f"/api/v1/tournaments/{tournament_id}/registrations"
    return await gateway.call("POST", path, token=player["access_token"], json={"entry": "buy_in"}, key=KEY)


async def test_a_demo_player_registers_for_the_demo_concessionaires_tournaments(
    deployed: Driver, services: FakeServices
) -> None:
    mario = await deployed.player_session("Mario")
    organised_by(services, "demo-sng", mario["principal"]["concessionaire_id"])
    answer = await register(deployed, mario, "demo-sng")
    assert answer.status_code == 201, answer.text
    assert [c.path for c in services.to("tournament-director") if c.method == "POST"] == [
        "/internal/v1/tournaments/demo-sng/registrations"
    ]


@pytest.mark.parametrize("organiser", ["another", None], ids=["another concessionaire's", "the network's"])
async def test_a_demo_player_cannot_buy_into_a_real_tournament(
    deployed: Driver, services: FakeServices, organiser: str | None
) -> None:
    mario = await deployed.player_session("Mario")
    organiser_id = await deployed.concessionaire("room-x") if organiser else None
    organised_by(services, "real-mtt", organiser_id)
    refused = await register(deployed, mario, "real-mtt")
    assert (refused.status_code, refused.json()["code"]) == (403, "demo_player_real_pool")
    assert refused.headers["content-type"] == "application/problem+json"
    assert [c for c in services.to("tournament-director") if c.method == "POST"] == []


async def test_staff_cannot_register_a_demo_player_into_a_real_tournament(
    deployed: Driver, services: FakeServices
) -> None:
    mario = await deployed.player_session("Mario")
    organised_by(services, "real-mtt", None)
    admin = await deployed.admin_token()
    refused = await deployed.call(
        "POST",
        "/api/v1/tournaments/real-mtt/registrations",
        token=admin,
        json={"player_id": mario["principal"]["id"]},
        key=KEY,
    )
    assert (refused.status_code, refused.json()["code"]) == (403, "demo_player_real_pool")


async def test_players_of_real_concessionaires_register_as_before(deployed: Driver, services: FakeServices) -> None:
    await deployed.concessionaire("room-x")
    luigi = await deployed.player_session("Luigi", concessionaire="room-x")
    organised_by(services, "real-mtt", None)
    answer = await register(deployed, luigi, "real-mtt")
    assert answer.status_code == 201, answer.text
    assert [c.path for c in services.to("tournament-director")] == ["/internal/v1/tournaments/real-mtt/registrations"]


async def test_a_real_players_registration_first_does_not_let_a_demo_player_in_after(
    deployed: Driver, services: FakeServices
) -> None:
    """Whether a concessionaire is the demo one is kept per concessionaire: what was learnt of the first player's
    says nothing of the next one's."""
    await deployed.concessionaire("room-x")
    luigi = await deployed.player_session("Luigi", concessionaire="room-x")
    mario = await deployed.player_session("Mario")
    organised_by(services, "real-mtt", None)
    assert (await register(deployed, luigi, "real-mtt")).status_code == 201
    refused = await register(deployed, mario, "real-mtt")
    assert (refused.status_code, refused.json()["code"]) == (403, "demo_player_real_pool")
    assert (await register(deployed, luigi, "real-mtt")).status_code == 201


async def test_a_demo_player_cannot_bet_on_the_totalizator(deployed: Driver, services: FakeServices) -> None:
    services.on("totalizator", "POST", r"/internal/v1/draws/.*/coupons", ok({"coupon_id": "C-1"}, 201))
    mario = await deployed.player_session("Mario")
    refused = await deployed.call(
        "POST", "/api/v1/draws/2030-23/coupons", token=mario["access_token"], json=COUPON, key=KEY
    )
    assert (refused.status_code, refused.json()["code"]) == (403, "demo_player_real_pool")
    assert services.to("totalizator") == []
    await deployed.concessionaire("room-x")
    luigi = await deployed.player_session("Luigi", concessionaire="room-x")
    await deployed.call(
        "POST", "/api/v1/draws/2030-23/coupons", token=luigi["access_token"], json=COUPON, key=KEY, expect=201
    )


async def test_in_standalone_a_demo_player_plays_and_bets_everywhere(driver: Driver, services: FakeServices) -> None:
    services.on("totalizator", "POST", r"/internal/v1/draws/.*/coupons", ok({"coupon_id": "C-1"}, 201))
    services.on("tournament-director", "POST", r"/internal/v1/tournaments/.*/registrations", ok({"registered": 1}, 201))
    mario = await driver.player_session("Mario")
    assert (await register(driver, mario, "real-mtt")).status_code == 201
    await driver.call(
        "POST", "/api/v1/draws/2030-23/coupons", token=mario["access_token"], json=COUPON, key=KEY, expect=201
    )
