"""Tournaments and tables through the gateway: what reaches the director and the table engine (who the player
is, their concessionaire, the Idempotency-Key), refusals the gateway makes itself, and answers relayed as
they came."""

from typing import Any

import httpx
import pytest
from fake_services import FakeServices, ok, problem
from gateway.domain.restrictions import RestrictionKind
from gateway.service.restrictions import set_player_restriction
from gateway_test_support import PASSWORD, Driver
from platform_kit.events.table import ContributeToDeck, PlayerAct, PostChat, SetSittingOut, command_routing_key
from platform_kit.testing import DatabaseTraffic, eventually
from test_access import two_concessionaires

KEY = "7f1c0a9e-1c2b-4c52-9a57-0e8f1f6f4a11"


# Every entry the director takes is relayed as named, a freeroll's free entry (P-9.1) too.
@pytest.mark.parametrize("entry", ["buy_in", "ticket", "satellite", "freeroll"])
async def test_a_player_registers_themself_with_their_concessionaire_and_key(
    driver: Driver, services: FakeServices, entry: str
) -> None:
    services.on(
        "tournament-director", "POST", r"/internal/v1/tournaments/snd-1/registrations", ok({"registered": 2}, 201)
    )
    mario = await driver.player_session("Mario")
    answer = await driver.call(
        "POST",
        "/api/v1/tournaments/snd-1/registrations",
        token=mario["access_token"],
        json={"entry": entry},
        key=KEY,
        expect=201,
    )
    assert answer.json() == {"registered": 2}
    [call] = services.to("tournament-director")
    principal = mario["principal"]
    assert call.body == {
        "player_id": principal["id"],
        "concessionaire_id": principal["concessionaire_id"],
        "entry": entry,
    }
    assert call.header("Idempotency-Key") == KEY
    assert (call.header("X-Principal-Role"), call.header("X-Principal-Id")) == ("player", principal["id"])
    assert call.header("X-Internal-Token") == "dev-internal-token"


async def test_money_moves_need_an_idempotency_key_before_anything_is_sent(
    driver: Driver, services: FakeServices
) -> None:
    mario = await driver.player_session("Mario")
    for path in ("/tournaments/snd-1/registrations", "/tournaments/snd-1/rebuys", "/tournaments/snd-1/addons"):
        refused = await driver.call("POST", f"/api/v1{path}", token=mario["access_token"], json={})
        assert (refused.status_code, refused.json()["code"]) == (400, "idempotency_key_required"), path
    assert services.calls == []


async def test_players_register_only_themselves_partners_only_their_own_players(
    driver: Driver, services: FakeServices
) -> None:
    services.on("tournament-director", "POST", r".*/registrations", ok({"registered": 1}, 201))
    world = await two_concessionaires(driver)
    a, b = world["a"], world["b"]
    mario = await driver.player_session("Mario")
    for credentials, player_id in (
        ({"token": mario["access_token"]}, a["player"]["id"]),  # a player naming someone else
        ({"api_key": a["key"]}, b["player"]["id"]),  # a partner naming another concessionaire's player
    ):
        refused = await driver.call(
            "POST", "/api/v1/tournaments/t/registrations", json={"player_id": player_id}, key=KEY, **credentials
        )
        assert (refused.status_code, refused.json()["code"]) == (404, "player_not_found")
    missing = await driver.call("POST", "/api/v1/tournaments/t/registrations", api_key=a["key"], json={}, key=KEY)
    assert (missing.status_code, missing.json()["code"]) == (422, "player_required")
    await driver.call(
        "POST",
        "/api/v1/tournaments/t/registrations",
        api_key=a["key"],
        json={"player_id": a["player"]["id"]},
        key=KEY,
        expect=201,
    )
    [call] = services.to("tournament-director")
    assert call.body["player_id"] == a["player"]["id"] and call.body["concessionaire_id"] == a["id"]
    assert call.header("X-Principal-Role") == "partner" and call.header("X-Concessionaire-Id") == a["id"]


async def test_a_player_registering_themself_is_read_once_with_their_standing(
    driver: Driver, services: FakeServices
) -> None:
    """Issue 14: a registration rush read each player twice, once with the standing (the route's access check)
    and once more for the record the registration carries."""
    services.on("tournament-director", "POST", r".*/registrations", ok({"registered": 1}, 201))
    mario = await driver.player_session("Mario")
    with DatabaseTraffic() as traffic:  # every engine: the read connections have their own on SQLite
        await driver.call(
            "POST", "/api/v1/tournaments/t/registrations", token=mario["access_token"], json={}, key=KEY, expect=201
        )
    [call] = services.to("tournament-director")
    assert call.body["player_id"] == mario["principal"]["id"]
    assert len([sql for sql in traffic.sql if "FROM players" in sql]) == 1


async def test_p12_5_banned_players_cannot_register_even_through_their_concessionaire(
    driver: Driver, services: FakeServices
) -> None:
    world = await two_concessionaires(driver)
    a = world["a"]
    login = await driver.call("POST", "/api/v1/auth/login", json={"login": "PlayerA", "password": PASSWORD}, expect=200)
    token = login.json()["access_token"]
    context = driver.services.context
    async with context.db.transaction() as session:
        await set_player_restriction(
            session, "s-1", a["player"]["id"], RestrictionKind.BANNED, None, "collusion", context.clock.now()
        )
    own = await driver.call("POST", "/api/v1/tournaments/t/registrations", token=token, json={}, key=KEY)
    by_partner = await driver.call(
        "POST", "/api/v1/tournaments/t/registrations", api_key=a["key"], json={"player_id": a["player"]["id"]}, key=KEY
    )
    for refused in (own, by_partner):
        assert (refused.status_code, refused.json()["code"]) == (403, "player_banned")
    assert services.calls == []


async def test_a_downstream_refusal_reaches_the_client_unchanged(driver: Driver, services: FakeServices) -> None:
    services.on("tournament-director", "POST", r".*/registrations", problem(409, "tournament_full", max_players=2))
    mario = await driver.player_session("Mario")
    refused = await driver.call(
        "POST", "/api/v1/tournaments/t/registrations", token=mario["access_token"], json={}, key=KEY
    )
    assert refused.status_code == 409
    assert refused.headers["content-type"] == "application/problem+json"
    assert refused.json()["code"] == "tournament_full" and refused.json()["max_players"] == 2


async def test_unregistering_rebuys_and_addons_act_for_the_caller_with_the_key(
    driver: Driver, services: FakeServices
) -> None:
    services.on("tournament-director", "DELETE", r".*/registrations/.*", ok({"refunded_cents": 500}))
    services.on("tournament-director", "POST", r".*/(rebuys|addons)", ok({"ok": True}))
    mario = await driver.player_session("Mario")
    me = mario["principal"]["id"]
    token = mario["access_token"]
    gone = await driver.call("DELETE", f"/api/v1/tournaments/t-1/registrations/{me}", token=token, key=KEY, expect=200)
    assert gone.json() == {"refunded_cents": 500}
    await driver.call("POST", "/api/v1/tournaments/t-1/rebuys", token=token, key="k2", expect=200)
    await driver.call("POST", "/api/v1/tournaments/t-1/addons", token=token, key="k3", expect=200)
    paths = [(c.method, c.path, c.header("Idempotency-Key"), c.body) for c in services.to("tournament-director")]
    assert paths == [
        ("DELETE", f"/internal/v1/tournaments/t-1/registrations/{me}", KEY, None),
        ("POST", "/internal/v1/tournaments/t-1/rebuys", "k2", {"player_id": me}),
        ("POST", "/internal/v1/tournaments/t-1/addons", "k3", {"player_id": me}),
    ]


async def test_p3_4_a_player_sees_their_own_tickets_and_takes_a_satellite_seat(
    driver: Driver, services: FakeServices
) -> None:
    services.on("tournament-director", "GET", r"/internal/v1/players/.*/tickets", ok([{"code": "TK-X"}]))
    services.on("tournament-director", "POST", r".*/registrations", ok({"entry": "satellite"}, 201))
    mario = await driver.player_session("Mario")
    luigi = await driver.player_session("Luigi")
    me, token = mario["principal"]["id"], mario["access_token"]
    seen = await driver.call("GET", f"/api/v1/players/{me}/tickets", token=token, expect=200)
    assert seen.json() == [{"code": "TK-X"}]
    # Another player is not there for them (404, as for every player route).
    await driver.call("GET", f"/api/v1/players/{luigi['principal']['id']}/tickets", token=token, expect=404)
    await driver.call(
        "POST", "/api/v1/tournaments/t-2/registrations", token=token, json={"entry": "satellite"}, key=KEY, expect=201
    )
    calls = [(c.method, c.path, c.header("X-Principal-Id")) for c in services.to("tournament-director")]
    assert calls == [
        ("GET", f"/internal/v1/players/{me}/tickets", me),
        ("POST", "/internal/v1/tournaments/t-2/registrations", me),
    ]
    assert services.to("tournament-director")[1].body["entry"] == "satellite"


async def test_lobby_reads_pass_filters_and_ids_cannot_add_path_segments(
    driver: Driver, services: FakeServices
) -> None:
    services.on("tournament-director", "GET", r"/v1/tournaments", ok([{"tournament_id": "t-1"}]))
    mario = await driver.player_session("Mario")
    listing = await driver.call(
        "GET", "/api/v1/tournaments", token=mario["access_token"], params={"status": "registering"}, expect=200
    )
    assert listing.json() == [{"tournament_id": "t-1"}]
    await driver.call("GET", "/api/v1/tournaments/a%2F..%2Fb", token=mario["access_token"], expect=404)
    await driver.call("GET", "/api/v1/tournaments/a%3Fstatus%3Dx", token=mario["access_token"], expect=404)
    calls = services.to("tournament-director")
    assert calls[0].params == {"status": ["registering"]}
    # An id is one opaque segment downstream: never a path or a query of its own.
    assert [(c.path, c.params) for c in calls[1:]] == [("/v1/tournaments/a?status=x", {})]


async def test_staff_administer_tournaments_and_players_may_not(driver: Driver, services: FakeServices) -> None:
    services.on("tournament-director", "POST", r"/internal/v1/tournaments", ok({"tournament_id": "t-9"}, 201))
    mario = await driver.player_session("Mario")
    definition = {"template": "heads_up_sit_and_go", "name": "HU"}
    denied = await driver.call("POST", "/api/v1/tournaments", token=mario["access_token"], json=definition)
    assert (denied.status_code, denied.json()["code"]) == (403, "role_not_allowed")
    admin = await driver.admin_token()
    created = await driver.call("POST", "/api/v1/tournaments", token=admin, json=definition, expect=201)
    assert created.json() == {"tournament_id": "t-9"}
    [call] = services.to("tournament-director")
    assert call.body == definition and call.header("X-Principal-Role") == "admin"


async def test_p1_4_a_player_downloads_their_own_copy_of_a_hand_others_everyones(
    driver: Driver, services: FakeServices
) -> None:
    attachment = {"content-disposition": 'attachment; filename="h-1.phh"', "content-type": "application/toml"}

    def own_copy(request: httpx.Request) -> httpx.Response:
        if request.url.params["player_id"] == mario["principal"]["id"]:
            return httpx.Response(200, text="hole cards: As Ah", headers=attachment)
        return problem(404, "player_not_in_hand")

    services.on("table-engine", "GET", r"/internal/v1/hands/h-1/phh", own_copy)
    services.on("table-engine", "GET", r"/v1/hands/h-1/phh", httpx.Response(200, text="shown only", headers=attachment))
    mario = await driver.player_session("Mario")
    luigi = await driver.player_session("Luigi")
    own = await driver.call("GET", "/api/v1/hands/h-1/phh", token=mario["access_token"], expect=200)
    assert own.text == "hole cards: As Ah"
    assert own.headers["content-disposition"] == 'attachment; filename="h-1.phh"'
    assert own.headers["content-type"].startswith("application/toml")
    watcher = await driver.call("GET", "/api/v1/hands/h-1/phh", token=luigi["access_token"], expect=200)
    assert watcher.text == "shown only"
    staff = await driver.call("GET", "/api/v1/hands/h-1/phh", token=await driver.admin_token(), expect=200)
    assert staff.text == "shown only"
    asked = [(c.path, c.params) for c in services.to("table-engine")]
    assert asked[:2] == [
        ("/internal/v1/hands/h-1/phh", {"player_id": [mario["principal"]["id"]]}),
        ("/internal/v1/hands/h-1/phh", {"player_id": [luigi["principal"]["id"]]}),
    ]


async def published(driver: Driver, command_type: str, count: int = 1) -> list[tuple[str, dict[str, Any]]]:
    async def sent() -> list[tuple[str, dict[str, Any]]]:
        found = [(key, e.payload) for key, e in driver.bus.published if e.type == command_type]
        return found if len(found) >= count else []

    result: list[tuple[str, dict[str, Any]]] = await eventually(sent)
    return result


async def test_an_action_goes_to_the_tables_shard_as_the_authenticated_player(driver: Driver) -> None:
    mario = await driver.player_session("Mario")
    body = {"hand_id": "h-3", "action": "raise", "amount": 240, "player_id": "someone-else"}
    refused = await driver.call("POST", "/api/v1/tables/t-42/actions", token=mario["access_token"], json=body)
    assert refused.status_code == 422  # nobody acts for another player: the field does not exist
    del body["player_id"]
    accepted = await driver.call(
        "POST", "/api/v1/tables/t-42/actions", token=mario["access_token"], json=body, expect=202
    )
    assert accepted.json() == {"accepted": True, "table_id": "t-42"}
    [(key, payload)] = await published(driver, PlayerAct.TYPE)
    assert key == command_routing_key(PlayerAct(table_id="t-42", hand_id="h", player_id="p", action="fold"), "t-42", 1)
    assert payload == {
        "table_id": "t-42",
        "hand_id": "h-3",
        "player_id": mario["principal"]["id"],
        "action": "raise",
        "amount": 240,
    }
    await driver.call(
        "POST", "/api/v1/tables/t-42/sitting-out", token=mario["access_token"], json={"sitting_out": True}, expect=202
    )
    [(_, sat_out)] = await published(driver, SetSittingOut.TYPE)
    assert sat_out["sitting_out"] is True
    bad_table = await driver.call("POST", "/api/v1/tables/a%20b/actions", token=mario["access_token"], json=body)
    assert bad_table.status_code == 422


async def test_an_action_the_broker_did_not_confirm_is_answered_503_and_can_be_sent_again(
    driver: Driver, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The answer waits for the broker (platform_kit.sender): 202 means the engine will get the action; without a
    confirm the player is told to send it again (503 with Retry-After), never left guessing."""
    mario = await driver.player_session("Mario")
    body = {"hand_id": "h-3", "action": "call"}
    deliver = driver.bus.publish

    async def broker_down(*_: Any, **__: Any) -> None:
        raise ConnectionError("broker unreachable")

    monkeypatch.setattr(driver.bus, "publish", broker_down)
    refused = await driver.call("POST", "/api/v1/tables/t-42/actions", token=mario["access_token"], json=body)
    assert (refused.status_code, refused.json()["code"]) == (503, "bus_unavailable")
    assert int(refused.headers["Retry-After"]) >= 1
    assert not [e for _, e in driver.bus.published if e.type == PlayerAct.TYPE]

    monkeypatch.setattr(driver.bus, "publish", deliver)
    await driver.call("POST", "/api/v1/tables/t-42/actions", token=mario["access_token"], json=body, expect=202)
    [(_, payload)] = await published(driver, PlayerAct.TYPE)
    assert payload["action"] == "call"


async def test_p1_3_a_deck_contribution_goes_to_the_tables_shard_as_the_players_and_is_bounded(
    driver: Driver,
) -> None:
    mario = await driver.player_session("Mario")
    token = mario["access_token"]
    for bad in ("", "x" * 65, "with space"):
        refused = await driver.call("POST", "/api/v1/tables/t-42/contributions", token=token, json={"value": bad})
        assert (refused.status_code, refused.json()["code"]) == (422, "validation_failed"), bad
    someone = {"value": "ab" * 32, "player_id": "someone-else"}
    refused = await driver.call("POST", "/api/v1/tables/t-42/contributions", token=token, json=someone)
    assert refused.status_code == 422  # nobody contributes for another player: the field does not exist
    await driver.call("POST", "/api/v1/tables/t-42/contributions", token=token, json={"value": "ab" * 32}, expect=202)
    [(key, payload)] = await published(driver, ContributeToDeck.TYPE)
    assert key == command_routing_key(ContributeToDeck(table_id="t-42", player_id="p", value="v"), "t-42", 1)
    assert payload == {"table_id": "t-42", "player_id": mario["principal"]["id"], "value": "ab" * 32}


async def test_p12_3_a_chat_banned_player_is_refused_at_the_gateway(driver: Driver) -> None:
    mario = await driver.player_session("Mario")
    token = mario["access_token"]
    await driver.call("POST", "/api/v1/tables/t-1/chat", token=token, json={"text": "gl all"}, expect=202)
    context = driver.services.context
    async with context.db.transaction() as session:
        await set_player_restriction(
            session, "s-2", mario["principal"]["id"], RestrictionKind.CHAT_BANNED, None, "insults", context.clock.now()
        )
    refused = await driver.call("POST", "/api/v1/tables/t-1/chat", token=token, json={"text": "!!"})
    assert (refused.status_code, refused.json()["code"]) == (403, "chat_banned")
    chats = await published(driver, PostChat.TYPE)
    assert [payload["text"] for _, payload in chats] == ["gl all"]
