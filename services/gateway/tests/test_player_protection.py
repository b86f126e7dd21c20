"""Player protection through the gateway (issue 17, docs/player-protection.md): self-exclusion (at once, not
reversible early, play refused, log-in for the account still allowed, the event for the director), the session
time limit and the reality check, and the history in scope only. The wallet and director are fakes here; the
deposit limits against the real wallet are in test_deposit_limits_end_to_end.py."""

from datetime import timedelta
from typing import Any

from fake_services import FakeServices, ok
from gateway.domain.protection import ExclusionTerm
from gateway.domain.roles import Principal, Role
from gateway_test_support import PASSWORD, Driver
from platform_kit.clock import FrozenClock
from platform_kit.events.gateway import PlayerSelfExcluded
from platform_kit.events.table import PlayerAct
from platform_kit.testing import eventually
from test_access import two_concessionaires
from test_money_proxies import COUPON
from test_streams import next_message
from test_websocket import connect, make_platform

KEY = "0b8e2c3a-protection-test-key"
REGISTER = "/api/v1/tournaments/t/registrations"


async def log_in(driver: Driver, login: str = "PlayerA") -> str:
    answer = await driver.call("POST", "/api/v1/auth/login", json={"login": login, "password": PASSWORD}, expect=200)
    return str(answer.json()["access_token"])


async def refreshed(driver: Driver, session: dict[str, Any]) -> str:
    """A new access token in the same session (access tokens last 15 minutes): refreshing starts no new one."""
    answer = await driver.call("POST", "/api/v1/auth/refresh", json={"refresh_token": session["refresh_token"]})
    session.update(answer.json())
    return str(session["access_token"])


async def log_in_session(driver: Driver, login: str = "PlayerA") -> dict[str, Any]:
    answer = await driver.call("POST", "/api/v1/auth/login", json={"login": login, "password": PASSWORD}, expect=200)
    session: dict[str, Any] = answer.json()
    return session


def protection(player_id: str, rest: str = "") -> str:
    return f"/api/v1/players/{player_id}/protection{rest}"


def director_registers(services: FakeServices) -> None:
    services.on("tournament-director", "POST", r".*/registrations", ok({"registered": 1}, 201))


async def test_self_exclusion_refuses_registration_at_once_even_through_the_partner(
    driver: Driver, services: FakeServices
) -> None:
    director_registers(services)
    world = await two_concessionaires(driver)
    a = world["a"]
    player_id = a["player"]["id"]
    token = await log_in(driver)
    await driver.call("POST", REGISTER, token=token, json={}, key=KEY, expect=201)

    excluded = await driver.call(
        "POST", protection(player_id, "/self-exclusion"), token=token, json={"term": "30_days"}, expect=201
    )

    assert excluded.json()["in_force"] is True
    assert excluded.json()["ends_at"] == "2026-03-31T12:00:00Z"
    own = await driver.call("POST", REGISTER, token=token, json={}, key="k2")
    by_partner = await driver.call("POST", REGISTER, api_key=a["key"], json={"player_id": player_id}, key="k3")
    for refused in (own, by_partner):
        assert (refused.status_code, refused.json()["code"]) == (403, "player_self_excluded")
        assert refused.json()["until"] == "2026-03-31T12:00:00+00:00"
    assert len(services.to("tournament-director")) == 1  # only the registration made before
    # Signing in to see the account (and withdraw) is still possible, as on Italian licensed sites.
    assert await log_in(driver)


async def test_self_exclusion_is_published_for_the_director_to_refund_open_registrations(driver: Driver) -> None:
    world = await two_concessionaires(driver)
    player = world["a"]["player"]
    token = await log_in(driver)
    await driver.call("POST", protection(player["id"], "/self-exclusion"), token=token, json={"term": "permanent"})

    async def published() -> list[Any]:
        return [e.event() for _, e in driver.bus.published if e.type == PlayerSelfExcluded.TYPE]

    [event] = await eventually(published)
    assert (event.player_id, event.concessionaire_id, event.term, event.ends_at) == (
        player["id"],
        world["a"]["id"],
        "permanent",
        None,
    )


async def test_self_exclusion_is_not_reversible_before_its_end_only_extendable(
    driver: Driver, services: FakeServices, clock: FrozenClock
) -> None:
    director_registers(services)
    world = await two_concessionaires(driver)
    player_id = world["a"]["player"]["id"]
    token = await log_in(driver)
    path = protection(player_id, "/self-exclusion")
    await driver.call("POST", path, token=token, json={"term": "60_days"}, expect=201)

    shorter = await driver.call("POST", path, token=token, json={"term": "30_days"})
    assert (shorter.status_code, shorter.json()["code"]) == (409, "self_exclusion_in_force")
    await driver.call("POST", path, token=token, json={"term": "90_days"}, expect=201)  # longer: allowed

    clock.advance(timedelta(days=89))
    token = await log_in(driver)
    assert (await driver.call("POST", REGISTER, token=token, json={}, key=KEY)).status_code == 403
    clock.advance(timedelta(days=1))
    token = await log_in(driver)
    await driver.call("POST", REGISTER, token=token, json={}, key=KEY, expect=201)


async def test_the_session_time_limit_refuses_play_until_a_new_log_in(
    driver: Driver, services: FakeServices, clock: FrozenClock
) -> None:
    director_registers(services)
    world = await two_concessionaires(driver)
    player_id = world["a"]["player"]["id"]
    session = await log_in_session(driver)
    path = protection(player_id, "/session")
    await driver.call("PUT", path, token=session["access_token"], json={"session_limit_minutes": 60}, expect=200)

    clock.advance(timedelta(minutes=59))
    await driver.call("POST", REGISTER, token=await refreshed(driver, session), json={}, key="k1", expect=201)
    clock.advance(timedelta(minutes=1))
    refused = await driver.call("POST", REGISTER, token=await refreshed(driver, session), json={}, key="k2")
    assert (refused.status_code, refused.json()["code"]) == (403, "session_time_limit_reached")
    # A partner acting for the player is not the player's session: only self-exclusion stops it.
    await driver.call("POST", REGISTER, api_key=world["a"]["key"], json={"player_id": player_id}, key="k3", expect=201)

    fresh = await log_in(driver)
    await driver.call("POST", REGISTER, token=fresh, json={}, key="k4", expect=201)


async def test_the_reality_check_gives_the_sessions_time_and_net_result(
    driver: Driver, services: FakeServices, clock: FrozenClock
) -> None:
    services.on("wallet", "GET", r"/internal/v1/players/.*/net-result", ok({"net": {"EUR": -1_500}}))
    world = await two_concessionaires(driver)
    player_id = world["a"]["player"]["id"]
    session = await log_in_session(driver)
    path = protection(player_id, "/session")
    await driver.call("PUT", path, token=session["access_token"], json={"reality_check_minutes": 30}, expect=200)

    clock.advance(timedelta(minutes=45))
    token = await refreshed(driver, session)
    view = (await driver.call("GET", protection(player_id), token=token, expect=200)).json()

    assert view["reality_check_minutes"] == 30 and view["session_limit_minutes"] is None
    session = view["session"]
    assert (session["started_at"], session["elapsed_seconds"], session["next_reality_check_at"]) == (
        "2026-03-01T12:00:00Z",
        45 * 60,
        "2026-03-01T13:00:00Z",
    )
    assert session["net_result"] == {"EUR": -1_500} and session["limit_reached"] is False
    [call] = services.to("wallet")
    assert call.params["since"] == ["2026-03-01T12:00:00+00:00"]


async def test_the_history_is_for_the_player_their_concessionaire_and_admins_only(
    driver: Driver, services: FakeServices
) -> None:
    wallet_history = {
        "player_id": "x",
        "changes": [
            {
                "currency": "EUR",
                "period": "day",
                "previous_amount": None,
                "requested_amount": 5_000,
                "changed_by": "player:x",
                "changed_at": "2026-03-01T11:00:00Z",
                "effective_from": "2026-03-01T11:00:00Z",
            }
        ],
    }
    services.on("wallet", "GET", r"/internal/v1/players/.*/deposit-limits/history", ok(wallet_history))
    world = await two_concessionaires(driver)
    a, b = world["a"], world["b"]
    player_id = a["player"]["id"]
    token = await log_in(driver)
    await driver.call("PUT", protection(player_id, "/session"), token=token, json={"session_limit_minutes": 90})
    await driver.call("POST", protection(player_id, "/self-exclusion"), token=token, json={"term": "30_days"})

    for reader in (token, a["operator"], await driver.admin_token()):
        changes = (await driver.call("GET", protection(player_id, "/history"), token=reader, expect=200)).json()
        assert [(c["setting"], c["value"], c["period"]) for c in changes["changes"]] == [
            ("self_exclusion", "30_days", None),
            ("session_limit", "90", None),
            ("deposit_limit", "5000", "day"),
        ]
        assert changes["changes"][0]["changed_by"] == f"player:{player_id}"
        assert changes["changes"][0]["effective_until"] == "2026-03-31T12:00:00Z"
    for outsider in ({"token": b["operator"]}, {"api_key": a["key"]}):
        refused = await driver.call("GET", protection(player_id, "/history"), **outsider)
        assert refused.status_code in (403, 404)
    other = await driver.call("GET", protection(player_id, "/history"), token=b["operator"])
    assert (other.status_code, other.json()["code"]) == (404, "player_not_found")


async def test_only_the_player_changes_their_settings(driver: Driver, services: FakeServices) -> None:
    world = await two_concessionaires(driver)
    player_id = world["a"]["player"]["id"]
    for path, body in (
        ("/self-exclusion", {"term": "30_days"}),
        ("/session", {"session_limit_minutes": 30}),
        ("/deposit-limits", {"currency": "EUR", "day": 100}),
    ):
        method = "POST" if path == "/self-exclusion" else "PUT"
        refused = await driver.call(method, protection(player_id, path), token=world["a"]["operator"], json=body)
        assert (refused.status_code, refused.json()["code"]) == (403, "role_not_allowed")
    assert services.to("wallet") == []


async def test_deposit_limits_are_relayed_to_the_wallet_with_who_asked(driver: Driver, services: FakeServices) -> None:
    services.on("wallet", "PUT", r"/internal/v1/players/.*/deposit-limits", ok({"limits": []}))
    world = await two_concessionaires(driver)
    player_id = world["a"]["player"]["id"]
    token = await log_in(driver)

    await driver.call(
        "PUT", protection(player_id, "/deposit-limits"), token=token, json={"currency": "EUR", "week": 20_000}
    )

    [call] = services.to("wallet")
    assert call.body == {"currency": "EUR", "changed_by": f"player:{player_id}", "week": 20_000}


def test_a_self_excluded_players_table_socket_frames_are_refused(database_url: str, clock: FrozenClock) -> None:
    """The table socket is a play route too: its frames are refused like the REST table routes."""
    with make_platform(database_url, clock) as platform:
        mario = platform.player("Mario")

        async def exclude() -> None:
            player = await platform.gateway.players.get(Principal(Role.ADMIN, "root"), mario["principal"]["id"])
            by = Principal(Role.PLAYER, player.id, player.concessionaire_id)
            await platform.gateway.protection.self_exclude(by, player, ExclusionTerm.DAYS_30)

        assert platform.client.portal is not None
        platform.client.portal.call(exclude)
        with connect(platform, mario["access_token"], "table") as ws:
            ws.receive_json()
            ws.send_json({"type": "act", "table_id": "t-1", "hand_id": "h-1", "action": "call", "ref": "a1"})
            refused = next_message(ws)
            assert (refused["type"], refused["code"], refused["ref"]) == ("error", "player_self_excluded", "a1")
        assert not [e for _, e in platform.bus.published if e.type == PlayerAct.TYPE]


async def test_self_exclusion_refuses_a_coupon_at_the_gateway_the_totalizator_never_asked(
    driver: Driver, services: FakeServices
) -> None:
    """The standing and the player's record are one read for a coupon (issue 14): the refusal still comes first."""
    services.on("totalizator", "POST", r".*/coupons", ok({"coupon_id": "C-1"}, 201))
    player_id = (await two_concessionaires(driver))["a"]["player"]["id"]
    token = await log_in(driver)
    await driver.call("POST", "/api/v1/draws/d-1/coupons", token=token, json=COUPON, key=KEY, expect=201)
    await driver.call(
        "POST", protection(player_id, "/self-exclusion"), token=token, json={"term": "30_days"}, expect=201
    )

    refused = await driver.call("POST", "/api/v1/draws/d-1/coupons", token=token, json=COUPON, key="k2")

    assert (refused.status_code, refused.json()["code"]) == (403, "player_self_excluded")
    [placed] = services.to("totalizator")
    assert (placed.body["player_id"], placed.body["birth_date"]) == (player_id, "1980-01-01")
