"""Who may call what: every route declares it, partners and operators stay inside their concessionaire,
API keys, P-11.5 public identity, and rate limits."""

from datetime import timedelta
from typing import Any

import pytest
from fastapi import APIRouter, FastAPI
from gateway.api.routes import api_routes
from gateway.app import create_app
from gateway_test_support import PASSWORD, Driver, fast_settings, running
from platform_kit.clock import FrozenClock


def undeclared_routes(app: FastAPI) -> list[str]:
    return [f"{sorted(r.methods) or ['WS']} {r.path}" for r in api_routes(app) if not r.policies]


def build_app() -> FastAPI:
    return create_app(fast_settings("sqlite+aiosqlite:///:memory:", migrate_on_start=False))


def test_every_api_route_declares_who_may_call_it() -> None:
    app = build_app()
    assert len(list(api_routes(app))) >= 15
    assert undeclared_routes(app) == []


def test_the_declaration_check_catches_a_route_without_one() -> None:
    app = build_app()
    forgotten = APIRouter()

    @forgotten.get("/api/v1/forgotten")
    async def forgot() -> dict[str, str]:
        return {}

    app.router.routes.insert(0, forgotten.routes[0])
    assert undeclared_routes(app) == ["['GET'] /api/v1/forgotten"]


def test_openapi_says_who_may_call_each_operation_and_shows_examples() -> None:
    document = build_app().openapi()
    signup = document["paths"]["/api/v1/auth/signup"]["post"]
    assert "anyone" in signup["description"]
    read = document["paths"]["/api/v1/players/{player_id}"]["get"]
    assert "partner" in read["description"] and "player" in read["description"]
    assert "429" in read["responses"] and "application/problem+json" in read["responses"]["401"]["content"]
    assert document["components"]["schemas"]["SignUp"]["examples"][0]["nickname"] == "MarioRossi"
    assert set(document["components"]["securitySchemes"]) == {"accessToken", "partnerApiKey"}


async def two_concessionaires(driver: Driver) -> dict[str, Any]:
    """Concessionaires A and B, each with an operator, a partner key and a player."""
    world: dict[str, Any] = {}
    for name in ("a", "b"):
        concessionaire_id = await driver.concessionaire(f"room-{name}")
        operator = await driver.operator_token(concessionaire_id, f"op@{name}.example")
        key = await driver.api_key(concessionaire_id, operator)
        player = await driver.call(
            "POST",
            "/api/v1/players",
            api_key=key,
            json={
                "nickname": f"Player{name.upper()}",
                "email": f"player@{name}.example",
                "date_of_birth": "1980-01-01",
                "password": PASSWORD,
            },
            expect=201,
        )
        world[name] = {"id": concessionaire_id, "operator": operator, "key": key, "player": player.json()}
    return world


def example_body(app: FastAPI, path: str, method: str) -> Any:
    """The OpenAPI example of the operation's body: a valid body for any route, present or future."""
    document = app.openapi()
    body = document["paths"][path][method.lower()].get("requestBody")
    if body is None:
        return None
    reference = body["content"]["application/json"]["schema"]["$ref"]
    return document["components"]["schemas"][reference.rsplit("/", 1)[1]]["examples"][0]


async def test_a_partner_can_never_read_or_change_another_concessionaires_players(driver: Driver) -> None:
    world = await two_concessionaires(driver)
    a, b = world["a"], world["b"]
    foreign = b["player"]["id"]
    routes = [r for r in api_routes(driver.app) if "{player_id}" in r.path]
    assert routes, "no player routes found"
    for route in routes:
        for method in route.methods:
            for credentials in ({"api_key": a["key"]}, {"token": a["operator"]}):
                answer = await driver.call(
                    method,
                    route.path.replace("{player_id}", foreign),
                    json=example_body(driver.app, route.path, method),
                    **credentials,
                )
                assert answer.status_code == 404, (method, route.path, answer.text)
                assert answer.json()["code"] == "player_not_found"
    # Their own player is there; the other's is untouched and invisible in listings.
    await driver.call("GET", f"/api/v1/players/{a['player']['id']}", api_key=a["key"], expect=200)
    listed = (await driver.call("GET", "/api/v1/players", api_key=a["key"], expect=200)).json()
    assert [p["id"] for p in listed] == [a["player"]["id"]]
    scoped = await driver.call(
        "GET", "/api/v1/players", api_key=a["key"], params={"concessionaire_id": b["id"]}, expect=200
    )
    assert [p["id"] for p in scoped.json()] == [a["player"]["id"]]
    as_b = (await driver.call("GET", f"/api/v1/players/{foreign}", api_key=b["key"], expect=200)).json()
    assert as_b == b["player"]
    # Nor can a partner register a player into another concessionaire, or read its keys.
    body = {"nickname": "Intruder", "email": "i@x.example", "date_of_birth": "1980-01-01", "password": PASSWORD}
    intrusion = await driver.call(
        "POST", "/api/v1/players", api_key=a["key"], json={**body, "concessionaire_id": b["id"]}
    )
    assert (intrusion.status_code, intrusion.json()["code"]) == (403, "not_your_concessionaire")
    keys = await driver.call("GET", f"/api/v1/concessionaires/{b['id']}/api-keys", token=a["operator"])
    assert keys.status_code == 403
    await driver.call("GET", f"/api/v1/concessionaires/{b['id']}", api_key=a["key"], expect=403)


async def test_players_see_only_themselves_and_roles_are_enforced(driver: Driver) -> None:
    mario = await driver.player_session("Mario")
    luigi = await driver.player_session("Luigi")
    await driver.call("GET", f"/api/v1/players/{mario['principal']['id']}", token=mario["access_token"], expect=200)
    await driver.call("GET", f"/api/v1/players/{mario['principal']['id']}", token=luigi["access_token"], expect=404)
    denied = await driver.call(
        "POST", "/api/v1/concessionaires", token=mario["access_token"], json={"code": "x1", "name": "X"}
    )
    assert (denied.status_code, denied.json()["code"]) == (403, "role_not_allowed")
    await driver.call("GET", "/api/v1/players", token=mario["access_token"], expect=403)
    forged = await driver.call("GET", "/api/v1/players/me", token=mario["access_token"][:-4] + "AAAA")
    assert (forged.status_code, forged.json()["code"]) == (401, "invalid_token")


async def test_p11_5_publicly_a_player_is_a_nickname_only(driver: Driver) -> None:
    mario = await driver.player_session("Mario")
    luigi = await driver.player_session("Luigi")
    answer = await driver.call(
        "GET",
        "/api/v1/players/public",
        token=luigi["access_token"],
        params={"player_id": [mario["principal"]["id"], "unknown-id"]},
        expect=200,
    )
    assert answer.json() == [{"player_id": mario["principal"]["id"], "nickname": "Mario"}]


async def test_api_keys_are_shown_once_stored_hashed_and_revocable(driver: Driver) -> None:
    concessionaire_id = await driver.concessionaire("room-k")
    operator = await driver.operator_token(concessionaire_id, "op@k.example")
    created = (
        await driver.call(
            "POST",
            f"/api/v1/concessionaires/{concessionaire_id}/api-keys",
            token=operator,
            json={"label": "shop"},
            expect=201,
        )
    ).json()
    key = created["key"]
    assert key.startswith(f"gk_{created['prefix']}_")
    listed = (await driver.call("GET", f"/api/v1/concessionaires/{concessionaire_id}/api-keys", token=operator)).json()
    assert listed == [{k: v for k, v in created.items() if k != "key"}]
    me = (await driver.call("GET", "/api/v1/auth/me", api_key=key, expect=200)).json()
    assert me == {"role": "partner", "id": created["id"], "concessionaire_id": concessionaire_id, "nickname": None}
    # A key with the right prefix but a wrong secret is refused.
    forged = key[:-3] + ("AAA" if not key.endswith("AAA") else "BBB")
    assert (await driver.call("GET", "/api/v1/auth/me", api_key=forged)).json()["code"] == "invalid_api_key"
    # Partners cannot mint keys; revoking takes effect at once.
    await driver.call(
        "POST", f"/api/v1/concessionaires/{concessionaire_id}/api-keys", api_key=key, json={"label": "x"}, expect=403
    )
    await driver.call(
        "DELETE", f"/api/v1/concessionaires/{concessionaire_id}/api-keys/{created['id']}", token=operator, expect=204
    )
    revoked = await driver.call("GET", "/api/v1/auth/me", api_key=key)
    assert (revoked.status_code, revoked.json()["code"]) == (401, "invalid_api_key")
    await driver.call(
        "DELETE", f"/api/v1/concessionaires/{concessionaire_id}/api-keys/unknown", token=operator, expect=404
    )


@pytest.fixture
async def limited(database_url: str, clock: FrozenClock) -> Any:
    settings = fast_settings(
        database_url,
        migrate_on_start=False,
        anonymous_rate_limit_per_second=1.0,
        anonymous_rate_limit_burst=2,
        rate_limit_per_second=2.0,
        rate_limit_burst=3,
    )
    async with running(settings, clock) as driver:
        yield driver


async def test_anonymous_callers_are_limited_per_address_with_retry_after(limited: Driver, clock: FrozenClock) -> None:
    attempt = {"login": "nobody", "password": PASSWORD}
    for _ in range(2):
        assert (await limited.call("POST", "/api/v1/auth/login", json=attempt)).status_code == 401
    refused = await limited.call("POST", "/api/v1/auth/login", json=attempt)
    assert refused.status_code == 429
    assert refused.headers["Retry-After"] == "1"
    assert refused.headers["content-type"] == "application/problem+json"
    assert refused.json()["code"] == "rate_limited"
    clock.advance(timedelta(seconds=1))
    assert (await limited.call("POST", "/api/v1/auth/login", json=attempt)).status_code == 401


async def test_authenticated_callers_each_have_their_own_bucket(limited: Driver, clock: FrozenClock) -> None:
    mario = (await limited.sign_up("Mario")).json()["access_token"]
    clock.advance(timedelta(seconds=10))  # refill the address's anonymous bucket
    luigi = (await limited.sign_up("Luigi")).json()["access_token"]
    for _ in range(3):
        await limited.call("GET", "/api/v1/players/me", token=mario, expect=200)
    exhausted = await limited.call("GET", "/api/v1/players/me", token=mario)
    assert exhausted.status_code == 429
    await limited.call("GET", "/api/v1/players/me", token=luigi, expect=200)
    clock.advance(timedelta(seconds=1))
    await limited.call("GET", "/api/v1/players/me", token=mario, expect=200)


async def test_signed_in_callers_on_public_routes_count_against_their_own_bucket(
    limited: Driver, clock: FrozenClock
) -> None:
    """Players behind one carrier NAT share an address: on a public route a signed-in player spends their own
    bucket, not the address's; a stale token counts as none."""
    mario = (await limited.sign_up("Mario")).json()["access_token"]
    clock.advance(timedelta(seconds=10))  # refill the address's anonymous bucket
    for _ in range(2):
        await limited.call("GET", "/api/v1/concessionaires", expect=200)
    assert (await limited.call("GET", "/api/v1/concessionaires")).status_code == 429
    for _ in range(3):
        await limited.call("GET", "/api/v1/concessionaires", token=mario, expect=200)
    assert (await limited.call("GET", "/api/v1/concessionaires", token="not-a-token")).status_code == 429
