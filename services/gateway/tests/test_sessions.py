"""Sign-up, log-in, token refresh with rotation and reuse detection, log-out, bans (P-12.5), T-1.4."""

from datetime import timedelta

import pytest
from gateway.adapters.orm import players
from gateway.domain.restrictions import RestrictionKind
from gateway.service.restrictions import set_player_restriction
from gateway_test_support import ADMIN_EMAIL, PASSWORD, Driver, fast_settings, running
from platform_kit.bus import Envelope
from platform_kit.clock import FrozenClock
from platform_kit.events.gateway import PlayerRegistered
from platform_kit.events.rating import SanctionDecided, SanctionLifted
from platform_kit.testing import eventually


async def identity_flow(driver: Driver, clock: FrozenClock) -> None:
    """The whole life of a player's session; run on SQLite and on PostgreSQL."""
    signed_up = (await driver.sign_up("MarioRossi")).json()
    assert signed_up["principal"]["nickname"] == "MarioRossi"
    assert signed_up["expires_in"] == 900

    # Log in by nickname in any case, or by email.
    for login in ("mariorossi", "MARIOROSSI", "MarioRossi@Example.com"):
        await driver.call("POST", "/api/v1/auth/login", json={"login": login, "password": PASSWORD}, expect=200)
    wrong = await driver.call("POST", "/api/v1/auth/login", json={"login": "MarioRossi", "password": "x" * 12})
    assert (wrong.status_code, wrong.json()["code"]) == (401, "invalid_credentials")
    unknown = await driver.call("POST", "/api/v1/auth/login", json={"login": "Nobody", "password": PASSWORD})
    assert unknown.json()["code"] == "invalid_credentials"  # the same answer: no account enumeration

    # Nicknames are unique across the network whatever the case.
    taken = await driver.sign_up("MARIOROSSI", expect=409)
    assert taken.json()["code"] == "nickname_taken"

    # The refresh token rotates; the access token works until it expires.
    first_refresh = signed_up["refresh_token"]
    rotated = (
        await driver.call("POST", "/api/v1/auth/refresh", json={"refresh_token": first_refresh}, expect=200)
    ).json()
    assert rotated["refresh_token"] != first_refresh
    await driver.call("GET", "/api/v1/players/me", token=rotated["access_token"], expect=200)
    clock.advance(timedelta(minutes=15))
    expired = await driver.call("GET", "/api/v1/players/me", token=rotated["access_token"])
    assert (expired.status_code, expired.json()["code"]) == (401, "token_expired")
    assert expired.headers["WWW-Authenticate"].startswith("Bearer")

    # Reusing the first refresh token reveals a leak: the family dies, including the rotated token.
    reused = await driver.call("POST", "/api/v1/auth/refresh", json={"refresh_token": first_refresh})
    assert (reused.status_code, reused.json()["code"]) == (401, "refresh_token_reused")
    killed = await driver.call("POST", "/api/v1/auth/refresh", json={"refresh_token": rotated["refresh_token"]})
    assert killed.json()["code"] in ("refresh_token_revoked", "refresh_token_reused")

    # Log-out ends the session of that log-in only.
    one = (await driver.call("POST", "/api/v1/auth/login", json={"login": "MarioRossi", "password": PASSWORD})).json()
    two = (await driver.call("POST", "/api/v1/auth/login", json={"login": "MarioRossi", "password": PASSWORD})).json()
    await driver.call("POST", "/api/v1/auth/logout", json={"refresh_token": one["refresh_token"]}, expect=204)
    ended = await driver.call("POST", "/api/v1/auth/refresh", json={"refresh_token": one["refresh_token"]})
    assert ended.json()["code"] == "refresh_token_revoked"
    await driver.call("POST", "/api/v1/auth/refresh", json={"refresh_token": two["refresh_token"]}, expect=200)


async def test_identity_flow_on_sqlite(driver: Driver, clock: FrozenClock) -> None:
    await identity_flow(driver, clock)


@pytest.mark.postgres
async def test_identity_flow_on_postgres(postgres_url: str, clock: FrozenClock) -> None:
    async with running(fast_settings(postgres_url), clock) as driver:
        await identity_flow(driver, clock)


async def test_t1_4_the_date_of_birth_is_stored_and_minors_are_refused(driver: Driver) -> None:
    """The clock says 2026-03-01: born 2008-03-01 is 18 today, born 2008-03-02 is not."""
    adult = (await driver.sign_up("JustEighteen", date_of_birth="2008-03-01")).json()
    me = await driver.call("GET", "/api/v1/players/me", token=adult["access_token"], expect=200)
    assert me.json()["date_of_birth"] == "2008-03-01"
    minor = await driver.sign_up("NotYet", date_of_birth="2008-03-02", expect=422)
    assert minor.json()["code"] == "underage"
    async with driver.services.context.db.sessions() as session:
        stored = (await session.execute(players.select().where(players.c.nickname == "NotYet"))).first()
    assert stored is None


async def test_t1_4_registration_is_published_with_the_date_of_birth(driver: Driver) -> None:
    player_id = (await driver.player_session("Giulia"))["principal"]["id"]

    async def published() -> list[Envelope]:
        return [e for key, e in driver.bus.published if key == PlayerRegistered.TYPE]

    [envelope] = await eventually(published)
    event = envelope.event()
    assert isinstance(event, PlayerRegistered)
    assert (event.player_id, event.nickname, str(event.date_of_birth)) == (player_id, "Giulia", "1990-05-17")


async def test_sign_up_refusals_are_problems_with_stable_codes(driver: Driver) -> None:
    bad = await driver.call(
        "POST",
        "/api/v1/auth/signup",
        json={
            "concessionaire": "demo",
            "nickname": "x",
            "email": "nope",
            "date_of_birth": "1990-01-01",
            "password": "s",
        },
    )
    assert bad.status_code == 422
    assert bad.headers["content-type"] == "application/problem+json"
    assert {e["field"] for e in bad.json()["errors"]} == {"body.nickname", "body.email", "body.password"}
    unknown = await driver.sign_up("Someone", concessionaire="no-such-room", expect=404)
    assert unknown.json()["code"] == "concessionaire_not_found"
    await driver.sign_up("Someone")
    same_email = await driver.call(
        "POST",
        "/api/v1/auth/signup",
        json={
            "concessionaire": "demo",
            "nickname": "SomeoneElse",
            "email": "SOMEONE@example.com",
            "date_of_birth": "1990-01-01",
            "password": PASSWORD,
        },
    )
    assert (same_email.status_code, same_email.json()["code"]) == (409, "email_taken")


async def test_p12_5_a_banned_player_can_neither_log_in_nor_refresh(driver: Driver, clock: FrozenClock) -> None:
    session = await driver.player_session("Cheater")
    player_id = session["principal"]["id"]
    async with driver.services.context.db.transaction() as db:
        await set_player_restriction(
            db, "s-1", player_id, RestrictionKind.BANNED, clock.now() + timedelta(days=3), "collusion", clock.now()
        )
    login = await driver.call("POST", "/api/v1/auth/login", json={"login": "Cheater", "password": PASSWORD})
    assert (login.status_code, login.json()["code"]) == (403, "player_banned")
    assert login.json()["reason"] == "collusion"
    refresh = await driver.call("POST", "/api/v1/auth/refresh", json={"refresh_token": session["refresh_token"]})
    assert refresh.status_code in (401, 403)  # the ban also revoked the sessions
    clock.advance(timedelta(days=3))
    await driver.call("POST", "/api/v1/auth/login", json={"login": "Cheater", "password": PASSWORD}, expect=200)


async def test_p12_5_a_chat_ban_does_not_stop_log_in(driver: Driver, clock: FrozenClock) -> None:
    player_id = (await driver.player_session("Chatty"))["principal"]["id"]
    async with driver.services.context.db.transaction() as db:
        await set_player_restriction(db, "s-2", player_id, RestrictionKind.CHAT_BANNED, None, "insults", clock.now())
    await driver.call("POST", "/api/v1/auth/login", json={"login": "Chatty", "password": PASSWORD}, expect=200)


def sanction(player_id: str, **fields: object) -> Envelope:
    values: dict[str, object] = {
        "sanction_id": "sanction-1",
        "player_id": player_id,
        "kind": "temporary_ban",
        "tournament_id": None,
        "ban_scope": "network",
        "starts_at": "2026-03-01T12:00:00+00:00",
        "ends_at": "2026-03-08T12:00:00+00:00",
        "reason": "cheating",
        **fields,
    }
    return Envelope.wrap(SanctionDecided.model_validate(values), producer="rating")


async def test_p12_5_bans_arrive_from_the_sanctions_registry_and_are_lifted_by_it(driver: Driver) -> None:
    player_id = (await driver.player_session("Banned"))["principal"]["id"]
    credentials = {"login": "Banned", "password": PASSWORD}

    async def login_status() -> int:
        return (await driver.call("POST", "/api/v1/auth/login", json=credentials)).status_code

    await driver.bus.publish(sanction(player_id).outgoing())
    await driver.bus.drain()
    assert await login_status() == 403
    lifted = SanctionLifted(
        sanction_id="sanction-1", player_id=player_id, kind="temporary_ban", reason="overturned_on_appeal"
    )
    await driver.bus.publish(Envelope.wrap(lifted, producer="rating").outgoing())
    await driver.bus.drain()
    assert await login_status() == 200


async def test_p12_5_a_room_ban_from_another_concessionaire_does_not_stop_log_in(driver: Driver) -> None:
    player_id = (await driver.player_session("Traveller"))["principal"]["id"]
    await driver.bus.publish(sanction(player_id, ban_scope="room", room_id="some-other-concessionaire").outgoing())
    await driver.bus.drain()
    credentials = {"login": "Traveller", "password": PASSWORD}
    await driver.call("POST", "/api/v1/auth/login", json=credentials, expect=200)


async def test_staff_log_in_and_the_bootstrap_administrator(driver: Driver) -> None:
    token = await driver.admin_token()
    me = await driver.call("GET", "/api/v1/auth/me", token=token, expect=200)
    assert me.json()["role"] == "admin"
    wrong = await driver.call("POST", "/api/v1/auth/staff/login", json={"email": ADMIN_EMAIL, "password": "wrong pass"})
    assert wrong.status_code == 401
    # A player cannot log in at the staff door, nor staff at the players' door.
    await driver.sign_up("Player1")
    staff_door = await driver.call(
        "POST", "/api/v1/auth/staff/login", json={"email": "player1@example.com", "password": PASSWORD}
    )
    assert staff_door.status_code == 401
    listing = await driver.call("GET", "/api/v1/concessionaires", expect=200)
    assert {"code": "demo", "name": "Demo Concessionaire"} in listing.json()


async def test_a_password_hashed_with_weaker_parameters_is_upgraded_at_log_in(
    database_url: str, clock: FrozenClock
) -> None:
    async with running(fast_settings(database_url, migrate_on_start=False), clock) as driver:
        await driver.sign_up("OldTimer")
    stronger = fast_settings(database_url, migrate_on_start=False, password_hash_memory_kib=128)
    async with running(stronger, clock) as driver:
        await driver.call("POST", "/api/v1/auth/login", json={"login": "OldTimer", "password": PASSWORD}, expect=200)
        async with driver.services.context.db.sessions() as session:
            stored = await session.scalar(players.select().with_only_columns(players.c.password_hash))
        assert stored is not None and "m=128" in stored
