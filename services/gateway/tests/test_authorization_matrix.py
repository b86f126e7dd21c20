"""Who may call each `/api` route of the gateway: declared once, in `EXPECTED`, and checked on the whole platform
with a real caller of every kind (`live_cast.KINDS`): anonymous, a player and another player of this
concessionaire, its operator and another concessionaire's, the network's administrator, a partner API key of
this concessionaire and of another. A route the app serves and the table does not declare, or the other way
round, fails `test_every_route_is_declared`: no route is added without saying who may call it.

Each route is called by each kind with real ids — this concessionaire's, its player's, its tournament, table and
hand, a draw, the player's coupon and sanction — and a valid body. An allowed caller gets past every access
check, here and in the service behind: a 2xx, or a 409 when the object's state refuses what was admitted (a
hand still in progress, a draw already cancelled by an earlier call) — never 401, 403 or 404, since every
object named exists. A refused caller gets 401 without credentials the route takes, 404 where the declaration
hides the object from them (another player's, another concessionaire's: its existence is not disclosed), 403
otherwise.

FastAPI runs a route's dependencies, its access declaration among them, before it validates the body or the
path (`test_an_invalid_request_is_refused_after_the_access_check`): only a body that is not JSON at all is
refused before them. Valid bodies here keep what answers the access check, not the validation.
"""

from __future__ import annotations

import itertools
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
import pytest_asyncio
from gateway.api.routes import api_routes
from gateway_test_support import PASSWORD
from live_cast import (
    ADMIN,
    ANONYMOUS,
    KINDS,
    OPERATOR,
    OTHER_OPERATOR,
    OTHER_PARTNER,
    OTHER_PLAYER,
    PARTNER,
    PLAYER,
    Api,
    Caller,
    World,
    build_world,
)
from live_platform import LivePlatform, live_platform
from live_socket import LiveSocket, SocketRefused

pytestmark = [pytest.mark.slow, pytest.mark.asyncio(loop_scope="module")]

ALLOWED = "allowed"
SOCKET = "WEBSOCKET"  # the method of the one WebSocket route in the table


# -- the declaration -------------------------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class Access:
    allowed: frozenset[str]
    hidden: frozenset[str] = frozenset()  # refused with 404: the object named is outside what they may see
    unauthenticated: frozenset[str] = frozenset({ANONYMOUS})  # refused with 401: no credentials the route takes

    def outcome(self, kind: str) -> str | int:
        if kind in self.allowed:
            return ALLOWED
        if kind in self.unauthenticated:
            return 401
        return 404 if kind in self.hidden else 403


def may(*kinds: str, hidden: tuple[str, ...] = (), unauthenticated: tuple[str, ...] = ()) -> Access:
    return Access(frozenset(kinds), frozenset(hidden), frozenset({ANONYMOUS, *unauthenticated}))


EVERYONE = may(*KINDS)
SIGNED_IN = may(*(kind for kind in KINDS if kind != ANONYMOUS))
PLAYERS = may(PLAYER, OTHER_PLAYER)
ADMIN_ONLY = may(ADMIN)
ANY_STAFF = may(OPERATOR, OTHER_OPERATOR, ADMIN)
# Another concessionaire's object, refused openly (the concessionaire itself is no secret).
ITS_STAFF = may(OPERATOR, ADMIN)
ITS_STAFF_AND_PARTNER = may(OPERATOR, ADMIN, PARTNER)
# The player named in the path: a player may see themself only, staff and partners their concessionaire's players.
OTHERS_OF_THE_PLAYER = (OTHER_PLAYER, OTHER_OPERATOR, OTHER_PARTNER)
ON_THE_PLAYER = may(PLAYER, OPERATOR, ADMIN, PARTNER, hidden=OTHERS_OF_THE_PLAYER)
ON_THE_PLAYER_NO_PARTNER = may(PLAYER, OPERATOR, ADMIN, hidden=OTHERS_OF_THE_PLAYER)
ON_THE_PLAYER_CASHIER = may(OPERATOR, ADMIN, PARTNER, hidden=OTHERS_OF_THE_PLAYER)
ON_THE_PLAYER_STAFF = may(OPERATOR, ADMIN, hidden=OTHERS_OF_THE_PLAYER)
ON_THE_PLAYER_OWN = may(PLAYER, hidden=OTHERS_OF_THE_PLAYER)  # the player's own choice, nobody else's

V1 = "/api/v1"
EXPECTED: dict[tuple[str, str], Access] = {
    # sessions
    ("POST", f"{V1}/auth/signup"): EVERYONE,
    ("POST", f"{V1}/auth/login"): EVERYONE,
    ("POST", f"{V1}/auth/staff/login"): EVERYONE,
    ("POST", f"{V1}/auth/refresh"): EVERYONE,
    ("POST", f"{V1}/auth/logout"): EVERYONE,
    ("GET", f"{V1}/auth/me"): SIGNED_IN,
    # concessionaires, operators, API keys
    ("GET", f"{V1}/concessionaires"): EVERYONE,
    ("POST", f"{V1}/concessionaires"): ADMIN_ONLY,
    ("GET", f"{V1}/concessionaires/{{concessionaire_id}}"): ITS_STAFF_AND_PARTNER,
    ("POST", f"{V1}/concessionaires/{{concessionaire_id}}/operators"): ADMIN_ONLY,
    ("POST", f"{V1}/concessionaires/{{concessionaire_id}}/api-keys"): ITS_STAFF,
    ("GET", f"{V1}/concessionaires/{{concessionaire_id}}/api-keys"): ITS_STAFF,
    ("DELETE", f"{V1}/concessionaires/{{concessionaire_id}}/api-keys/{{key_id}}"): ITS_STAFF,
    # players
    ("POST", f"{V1}/players"): ITS_STAFF_AND_PARTNER,
    ("GET", f"{V1}/players"): may(OPERATOR, OTHER_OPERATOR, ADMIN, PARTNER, OTHER_PARTNER),  # each its own
    ("GET", f"{V1}/players/me"): PLAYERS,
    ("GET", f"{V1}/players/public"): SIGNED_IN,
    ("GET", f"{V1}/players/{{player_id}}"): ON_THE_PLAYER,
    ("PATCH", f"{V1}/players/{{player_id}}"): ON_THE_PLAYER,
    # tournaments
    ("GET", f"{V1}/tournaments"): SIGNED_IN,
    ("GET", f"{V1}/tournaments/{{tournament_id}}"): SIGNED_IN,
    ("GET", f"{V1}/tournaments/{{tournament_id}}/standings"): SIGNED_IN,
    ("GET", f"{V1}/players/{{player_id}}/tournaments"): ON_THE_PLAYER,
    ("GET", f"{V1}/players/{{player_id}}/tickets"): ON_THE_PLAYER_NO_PARTNER,
    ("POST", f"{V1}/tournaments/{{tournament_id}}/registrations"): ON_THE_PLAYER,
    ("DELETE", f"{V1}/tournaments/{{tournament_id}}/registrations/{{player_id}}"): ON_THE_PLAYER,
    ("POST", f"{V1}/tournaments/{{tournament_id}}/rebuys"): PLAYERS,  # each for themself
    ("POST", f"{V1}/tournaments/{{tournament_id}}/addons"): PLAYERS,
    ("GET", f"{V1}/tournament-templates"): ANY_STAFF,
    ("POST", f"{V1}/tournaments"): ANY_STAFF,  # each for its own concessionaire
    ("POST", f"{V1}/tournaments/{{tournament_id}}/start"): ITS_STAFF,
    ("GET", f"{V1}/tournaments/{{tournament_id}}/cancellation-preview"): ITS_STAFF,
    ("DELETE", f"{V1}/tournaments/{{tournament_id}}/recurrence"): ITS_STAFF,
    ("POST", f"{V1}/tournaments/{{tournament_id}}/pause"): ITS_STAFF,
    ("POST", f"{V1}/tournaments/{{tournament_id}}/resume"): ITS_STAFF,
    ("POST", f"{V1}/tournaments/{{tournament_id}}/cancellation"): ITS_STAFF,
    ("GET", f"{V1}/lobby-schedule"): ANY_STAFF,  # each its own concessionaire's entries
    ("POST", f"{V1}/lobby-schedule"): ANY_STAFF,  # each for its own concessionaire
    ("DELETE", f"{V1}/lobby-schedule/{{key}}"): may(OPERATOR, ADMIN, hidden=(OTHER_OPERATOR,)),
    # tables and hands: public state for anyone signed in; the audit for the organiser's staff (P-1.3, P-1.4)
    ("GET", f"{V1}/tables/{{table_id:path}}/hands"): SIGNED_IN,
    ("GET", f"{V1}/tournaments/{{tournament_id}}/hands"): SIGNED_IN,
    ("GET", f"{V1}/hands/{{hand_id}}/phh"): SIGNED_IN,
    ("GET", f"{V1}/hands/{{hand_id}}/audit"): may(OPERATOR, ADMIN, hidden=(OTHER_OPERATOR,)),
    ("POST", f"{V1}/tables/{{table_id:path}}/actions"): PLAYERS,  # the engine decides if it is their turn
    ("POST", f"{V1}/tables/{{table_id:path}}/chat"): PLAYERS,
    ("POST", f"{V1}/tables/{{table_id:path}}/sitting-out"): PLAYERS,
    # a random value for the next deck (docs/fair-deal.md): the engine takes it from a player seated there only
    ("POST", f"{V1}/tables/{{table_id:path}}/contributions"): PLAYERS,
    ("GET", f"{V1}/tables/{{table_id:path}}"): SIGNED_IN,
    # the totalizator: public draws, players' coupons
    ("GET", f"{V1}/draws"): EVERYONE,
    ("GET", f"{V1}/draws/{{draw_id}}"): EVERYONE,
    ("GET", f"{V1}/draws/{{draw_id}}/statistics"): EVERYONE,
    ("GET", f"{V1}/draws/{{draw_id}}/files/draw.json"): EVERYONE,
    ("GET", f"{V1}/draws/{{draw_id}}/files/bets.csv"): EVERYONE,
    ("GET", f"{V1}/draws/{{draw_id}}/settlement"): EVERYONE,
    ("GET", f"{V1}/totalizator/jackpot"): EVERYONE,
    ("POST", f"{V1}/draws/{{draw_id}}/coupons"): PLAYERS,
    ("GET", f"{V1}/players/{{player_id}}/coupons"): ON_THE_PLAYER,
    ("GET", f"{V1}/coupons/{{coupon_id}}"): ON_THE_PLAYER,
    # draw administration: the network's, so its administrators' (T-1.5); any staff member reads it
    ("POST", f"{V1}/admin/draws"): ADMIN_ONLY,
    ("GET", f"{V1}/admin/draws"): ANY_STAFF,
    ("GET", f"{V1}/admin/draws/{{draw_id}}"): ANY_STAFF,
    ("POST", f"{V1}/admin/draws/{{draw_id}}/announce"): ADMIN_ONLY,
    ("PUT", f"{V1}/admin/draws/{{draw_id}}/matches/{{no}}/kickoff"): ADMIN_ONLY,
    ("PUT", f"{V1}/admin/draws/{{draw_id}}/matches/{{no}}/result"): ADMIN_ONLY,
    ("POST", f"{V1}/admin/draws/{{draw_id}}/matches/{{no}}/void"): ADMIN_ONLY,
    ("POST", f"{V1}/admin/draws/{{draw_id}}/settle"): ADMIN_ONLY,
    ("GET", f"{V1}/admin/draws/{{draw_id}}/settlement-preview"): ADMIN_ONLY,
    ("POST", f"{V1}/admin/draws/{{draw_id}}/cancel"): ADMIN_ONLY,
    ("GET", f"{V1}/admin/draws/{{draw_id}}/decisions"): ANY_STAFF,
    ("GET", f"{V1}/admin/draws/{{draw_id}}/transfers"): ANY_STAFF,
    # money
    ("GET", f"{V1}/currencies"): SIGNED_IN,
    ("GET", f"{V1}/players/{{player_id}}/accounts"): ON_THE_PLAYER,
    ("POST", f"{V1}/players/{{player_id}}/accounts"): ON_THE_PLAYER_CASHIER,
    ("GET", f"{V1}/players/{{player_id}}/statement"): ON_THE_PLAYER,
    ("POST", f"{V1}/players/{{player_id}}/deposits"): ON_THE_PLAYER_CASHIER,
    ("POST", f"{V1}/players/{{player_id}}/withdrawals"): ON_THE_PLAYER_CASHIER,
    ("GET", f"{V1}/concessionaires/{{concessionaire_id}}/accounts"): ITS_STAFF_AND_PARTNER,
    ("GET", f"{V1}/concessionaires/{{concessionaire_id}}/statement"): ITS_STAFF_AND_PARTNER,
    ("POST", f"{V1}/concessionaires/{{concessionaire_id}}/funding"): ITS_STAFF_AND_PARTNER,
    # the ledger's reconciliation (issue 17): the network's for admins, a concessionaire's for its staff
    ("GET", f"{V1}/reconciliation"): ADMIN_ONLY,
    ("GET", f"{V1}/concessionaires/{{concessionaire_id}}/reconciliation"): ITS_STAFF,
    # player protection (issue 17): the player sets, their concessionaire's staff and the admins read
    ("GET", f"{V1}/players/{{player_id}}/protection"): ON_THE_PLAYER_NO_PARTNER,
    ("GET", f"{V1}/players/{{player_id}}/protection/history"): ON_THE_PLAYER_NO_PARTNER,
    ("GET", f"{V1}/players/{{player_id}}/protection/deposit-limits"): ON_THE_PLAYER_NO_PARTNER,
    ("PUT", f"{V1}/players/{{player_id}}/protection/deposit-limits"): ON_THE_PLAYER_OWN,
    ("PUT", f"{V1}/players/{{player_id}}/protection/session"): ON_THE_PLAYER_OWN,
    ("POST", f"{V1}/players/{{player_id}}/protection/self-exclusion"): ON_THE_PLAYER_OWN,
    # rating and conduct (P-12): no partner takes part
    ("GET", f"{V1}/leaderboard"): EVERYONE,
    ("GET", f"{V1}/players/{{player_id}}/rating"): ON_THE_PLAYER,
    ("GET", f"{V1}/players/{{player_id}}/sanctions"): ON_THE_PLAYER_NO_PARTNER,
    ("GET", f"{V1}/players/{{player_id}}/conduct"): ON_THE_PLAYER_STAFF,
    ("POST", f"{V1}/reports"): may(PLAYER, OTHER_PLAYER, OPERATOR, ADMIN),
    ("GET", f"{V1}/reports"): ANY_STAFF,  # each its own concessionaire's
    ("POST", f"{V1}/reports/{{report_id}}/dismissal"): ITS_STAFF,
    ("POST", f"{V1}/sanctions"): ITS_STAFF,
    ("GET", f"{V1}/sanctions/{{sanction_id}}"): may(PLAYER, OPERATOR, ADMIN, hidden=(OTHER_PLAYER, OTHER_OPERATOR)),
    ("POST", f"{V1}/sanctions/{{sanction_id}}/appeal"): may(PLAYER, hidden=(OTHER_PLAYER,)),
    ("POST", f"{V1}/sanctions/{{sanction_id}}/appeal/decision"): ITS_STAFF,
    # partner webhooks (issue 16): the concessionaire's staff and its own partner keys
    ("POST", f"{V1}/concessionaires/{{concessionaire_id}}/webhooks"): ITS_STAFF_AND_PARTNER,
    ("GET", f"{V1}/concessionaires/{{concessionaire_id}}/webhooks"): ITS_STAFF_AND_PARTNER,
    ("GET", f"{V1}/concessionaires/{{concessionaire_id}}/webhooks/{{endpoint_id}}"): ITS_STAFF_AND_PARTNER,
    ("PATCH", f"{V1}/concessionaires/{{concessionaire_id}}/webhooks/{{endpoint_id}}"): ITS_STAFF_AND_PARTNER,
    ("DELETE", f"{V1}/concessionaires/{{concessionaire_id}}/webhooks/{{endpoint_id}}"): ITS_STAFF_AND_PARTNER,
    (
        "POST",
        f"{V1}/concessionaires/{{concessionaire_id}}/webhooks/{{endpoint_id}}/secret-rotation",
    ): ITS_STAFF_AND_PARTNER,
    ("GET", f"{V1}/concessionaires/{{concessionaire_id}}/webhooks/{{endpoint_id}}/deliveries"): ITS_STAFF_AND_PARTNER,
    (
        "POST",
        f"{V1}/concessionaires/{{concessionaire_id}}/webhooks/{{endpoint_id}}/deliveries/{{delivery_id}}/replay",
    ): ITS_STAFF_AND_PARTNER,
    ("POST", f"{V1}/concessionaires/{{concessionaire_id}}/webhooks/{{endpoint_id}}/replays"): ITS_STAFF_AND_PARTNER,
    ("POST", f"{V1}/concessionaires/{{concessionaire_id}}/webhooks/{{endpoint_id}}/ping"): ITS_STAFF_AND_PARTNER,
    ("GET", f"{V1}/concessionaires/{{concessionaire_id}}/webhook-notices"): ITS_STAFF_AND_PARTNER,
    # streams: an access token in the first message; an API key is no credential there
    (SOCKET, f"{V1}/ws"): may(
        PLAYER, OTHER_PLAYER, OPERATOR, OTHER_OPERATOR, ADMIN, unauthenticated=(PARTNER, OTHER_PARTNER)
    ),
}


# -- the objects the routes name ---------------------------------------------------------------------------------
CLOSE_AT = datetime.now(UTC) + timedelta(days=2)
_serial = itertools.count(1)


def serial() -> int:
    return next(_serial)


@dataclass
class Objects:
    world: World
    ids: dict[str, str] = field(default_factory=dict)

    @property
    def api(self) -> Api:
        return self.world.api

    def caller(self, kind: str) -> Caller:
        return self.world[kind]


def draw_body(draw_id: str) -> dict[str, Any]:
    kickoffs = [(CLOSE_AT + timedelta(hours=no)).isoformat() for no in range(1, 9)]
    return {
        "draw_id": draw_id,
        "close_at": CLOSE_AT.isoformat(),
        "matches": [
            {"competition": "League", "home": f"H{no}", "away": f"A{no}", "kickoff": k}
            for no, k in enumerate(kickoffs, 1)
        ],
        "currencies": [{"currency": "EUR", "min_stake": "0.10", "usd_rate": "1.0843"}],
    }


async def _report(objects: Objects, by: Caller, offender: str) -> str:
    body = {"offender_id": offender, "offence": "offensive_language", "description": "rude in the chat"}
    return str((await objects.api.call("POST", "/reports", by, json=body, expect=201)).json()["report_id"])


def _sanction_body(report_id: str) -> dict[str, Any]:
    return {
        "report_ids": [report_id],
        "kind": "written_warning",
        "context": "after_tournament",
        "offence": "offensive_language",
        "gravity": "minor",
        "reason": "insults",
    }


async def _tournament(objects: Objects, name: str) -> str:
    body = {"template": "nine_max_sit_and_go", "name": name, "buy_in": {"prize_part_cents": 400, "fee_cents": 100}}
    created = await objects.api.call("POST", "/tournaments", objects.caller(OPERATOR), json=body, expect=201)
    return str(created.json()["tournament_id"])


async def build_objects(world: World) -> Objects:
    objects = Objects(world)
    api, admin, player = world.api, world[ADMIN], world[PLAYER]
    third_player = await api.sign_up("alpha", "Carla")  # whom reports are about
    for draw_id in ("open-draw", "admin-draw"):
        await api.call("POST", "/admin/draws", admin, json=draw_body(draw_id), expect=201)
    await api.call("POST", "/admin/draws/open-draw/announce", admin, expect=200)
    coupon = {"currency": "EUR", "amount": 100, "picks": [["1:0"]] * 8}
    placed = await api.call("POST", "/draws/open-draw/coupons", player, json=coupon, money=True, expect=201)
    report = await _report(objects, world[OTHER_PLAYER], world.player_id)
    decided = await api.call("POST", "/sanctions", world[OPERATOR], json=_sanction_body(report), expect=201)
    objects.ids = {
        "player_id": world.player_id,
        "concessionaire_id": world.concessionaire_id,
        "tournament_id": world.tournament_id,
        "table_id": world.table_id,
        "hand_id": world.hand_id,
        "draw_id": "open-draw",
        "admin_draw": "admin-draw",
        "no": "1",
        "coupon_id": str(placed.json()["coupon_id"]),
        "sanction_id": str(decided.json()["sanction_id"]),
        "third_player_id": str(third_player.subject_id),
        "open_tournament": await _tournament(objects, "Open nine"),
        "managed_tournament": await _tournament(objects, "Managed nine"),
    }
    return objects


# -- per route: what to send ---------------------------------------------------------------------------------------
Prepare = Callable[[Objects], Awaitable[dict[str, str]]]


@dataclass(frozen=True, slots=True)
class Request:
    """`ids`: path placeholders filled with another of the objects; `prepare`: values made fresh for each
    call (a key to revoke, a report to dismiss); `body` and `params` see the ids and the caller's kind."""

    body: Callable[[dict[str, str], str], Any] | None = None
    params: Callable[[dict[str, str]], dict[str, Any]] | None = None
    ids: dict[str, str] = field(default_factory=dict)
    prepare: Prepare | None = None


async def _fresh_key(objects: Objects) -> dict[str, str]:
    path = f"/concessionaires/{objects.world.concessionaire_id}/api-keys"
    created = await objects.api.call("POST", path, objects.caller(OPERATOR), json={"label": "to revoke"}, expect=201)
    return {"key_id": str(created.json()["id"])}


def _lobby_entry(ids: dict[str, str], kind: str) -> dict[str, Any]:
    body = {
        "template": "scheduled_mtt",
        "name": f"Daily by {kind}",
        "buy_in": {"prize_part_cents": 400, "fee_cents": 100},
    }
    return {"key": f"daily-{serial()}", "every_minutes": 1440, "body": body}


async def _fresh_lobby_entry(objects: Objects) -> dict[str, str]:
    """An entry of this concessionaire's operator in the lobby's schedule, to disable."""
    body = _lobby_entry(objects.ids, OPERATOR)
    await objects.api.call("POST", "/lobby-schedule", objects.caller(OPERATOR), json=body, expect=201)
    return {"key": str(body["key"])}


async def _fresh_endpoint(objects: Objects) -> dict[str, str]:
    """A webhook endpoint of this concessionaire, with one delivery (a ping) in its log."""
    path = f"/concessionaires/{objects.world.concessionaire_id}/webhooks"
    operator = objects.caller(OPERATOR)
    body = {"url": "https://hooks.partner.example/poker", "event_types": ["player.registered"]}
    endpoint = str((await objects.api.call("POST", path, operator, json=body, expect=201)).json()["id"])
    ping = await objects.api.call("POST", f"{path}/{endpoint}/ping", operator, expect=202)
    return {"endpoint_id": endpoint, "delivery_id": str(ping.json()["id"])}


async def _fresh_session(objects: Objects) -> dict[str, str]:
    body = {"login": "Carla", "password": PASSWORD}
    session = (await objects.api.call("POST", "/auth/login", json=body, expect=200)).json()
    return {"refresh_token": str(session["refresh_token"])}


async def _fresh_report(objects: Objects) -> dict[str, str]:
    return {"report_id": await _report(objects, objects.caller(PLAYER), objects.ids["third_player_id"])}


async def _registered(objects: Objects) -> dict[str, str]:
    """The player is registered for the open tournament (again, if a call unregistered them)."""
    path = f"/tournaments/{objects.ids['open_tournament']}/registrations"
    body = {"entry": "buy_in", "player_id": objects.world.player_id}
    answer = await objects.api.call("POST", path, objects.caller(ADMIN), json=body, money=True)
    assert answer.status_code in (201, 409), answer.text
    return {}


def _new_player(ids: dict[str, str], kind: str) -> dict[str, Any]:
    n = serial()
    return {
        "nickname": f"Made{n}",
        "email": f"made{n}@players.example",
        "date_of_birth": "1990-01-01",
        "password": PASSWORD,
        "concessionaire_id": ids["concessionaire_id"],
    }


def _sign_up(ids: dict[str, str], kind: str) -> dict[str, Any]:
    n = serial()
    body = {"concessionaire": "alpha", "nickname": f"Newbie{n}", "email": f"newbie{n}@players.example"}
    return {**body, "date_of_birth": "1990-01-01", "password": PASSWORD}


CASH = {"currency": "EUR", "amount": 100, "reference": "till 1"}
REASON = {"reason": "fixtures postponed"}
OPEN = {"tournament_id": "open_tournament"}
MANAGED = {"tournament_id": "managed_tournament"}
ADMIN_DRAW = {"draw_id": "admin_draw"}
WEBHOOK_CALLS: list[tuple[str, str, Callable[[dict[str, str], str], Any] | None]] = [
    ("GET", "", None),
    ("PATCH", "", lambda ids, kind: {"description": f"changed by {kind}"}),
    ("DELETE", "", None),
    ("POST", "/secret-rotation", lambda ids, kind: {"overlap_seconds": 60}),
    ("GET", "/deliveries", None),
    ("POST", "/deliveries/{delivery_id}/replay", None),
    ("POST", "/replays", lambda ids, kind: {"since": "2020-01-01T00:00:00Z", "until": "2100-01-01T00:00:00Z"}),
    ("POST", "/ping", None),
]
REQUESTS: dict[tuple[str, str], Request] = {
    ("POST", f"{V1}/auth/signup"): Request(body=_sign_up),
    ("POST", f"{V1}/auth/login"): Request(body=lambda ids, kind: {"login": "Anna", "password": PASSWORD}),
    ("POST", f"{V1}/auth/staff/login"): Request(
        body=lambda ids, kind: {"email": "operator@alpha.example", "password": PASSWORD}
    ),
    ("POST", f"{V1}/auth/refresh"): Request(
        body=lambda ids, kind: {"refresh_token": ids["refresh_token"]}, prepare=_fresh_session
    ),
    ("POST", f"{V1}/auth/logout"): Request(
        body=lambda ids, kind: {"refresh_token": ids["refresh_token"]}, prepare=_fresh_session
    ),
    ("POST", f"{V1}/concessionaires"): Request(body=lambda ids, kind: {"code": f"room-{serial()}", "name": "Room"}),
    ("POST", f"{V1}/concessionaires/{{concessionaire_id}}/operators"): Request(
        body=lambda ids, kind: {"email": f"op{serial()}@alpha.example", "password": PASSWORD}
    ),
    ("POST", f"{V1}/concessionaires/{{concessionaire_id}}/api-keys"): Request(body=lambda ids, kind: {"label": kind}),
    ("DELETE", f"{V1}/concessionaires/{{concessionaire_id}}/api-keys/{{key_id}}"): Request(prepare=_fresh_key),
    ("POST", f"{V1}/concessionaires/{{concessionaire_id}}/webhooks"): Request(
        body=lambda ids, kind: {"url": f"https://{kind}.partner.example/hooks", "event_types": ["payout.posted"]}
    ),
    **{
        (method, f"{V1}/concessionaires/{{concessionaire_id}}/webhooks/{{endpoint_id}}{tail}"): Request(
            body=body, prepare=_fresh_endpoint
        )
        for method, tail, body in WEBHOOK_CALLS
    },
    ("POST", f"{V1}/players"): Request(body=_new_player),
    ("GET", f"{V1}/players/public"): Request(params=lambda ids: {"player_id": ids["player_id"]}),
    ("PATCH", f"{V1}/players/{{player_id}}"): Request(
        body=lambda ids, kind: {"email": f"anna{serial()}@players.example"}
    ),
    ("POST", f"{V1}/tournaments/{{tournament_id}}/registrations"): Request(
        body=lambda ids, kind: {"entry": "buy_in", "player_id": ids["player_id"]}, ids=OPEN
    ),
    ("DELETE", f"{V1}/tournaments/{{tournament_id}}/registrations/{{player_id}}"): Request(
        ids=OPEN, prepare=_registered
    ),
    ("POST", f"{V1}/tournaments"): Request(
        body=lambda ids, kind: {
            "template": "heads_up_sit_and_go",
            "name": f"By {kind}",
            "buy_in": {"prize_part_cents": 400, "fee_cents": 100},
        }
    ),
    ("POST", f"{V1}/tournaments/{{tournament_id}}/start"): Request(ids=MANAGED),
    ("GET", f"{V1}/tournaments/{{tournament_id}}/cancellation-preview"): Request(ids=MANAGED),
    ("DELETE", f"{V1}/tournaments/{{tournament_id}}/recurrence"): Request(ids=MANAGED),
    ("POST", f"{V1}/tournaments/{{tournament_id}}/pause"): Request(body=lambda ids, kind: REASON, ids=MANAGED),
    ("POST", f"{V1}/tournaments/{{tournament_id}}/resume"): Request(ids=MANAGED),
    ("POST", f"{V1}/tournaments/{{tournament_id}}/cancellation"): Request(body=lambda ids, kind: REASON, ids=MANAGED),
    ("POST", f"{V1}/lobby-schedule"): Request(body=_lobby_entry),
    ("DELETE", f"{V1}/lobby-schedule/{{key}}"): Request(prepare=_fresh_lobby_entry),
    ("POST", f"{V1}/tables/{{table_id:path}}/actions"): Request(
        body=lambda ids, kind: {"hand_id": "not-the-hand-in-progress", "action": "check"}
    ),
    ("POST", f"{V1}/tables/{{table_id:path}}/chat"): Request(body=lambda ids, kind: {"text": "good luck"}),
    ("POST", f"{V1}/tables/{{table_id:path}}/sitting-out"): Request(body=lambda ids, kind: {"sitting_out": False}),
    ("POST", f"{V1}/tables/{{table_id:path}}/contributions"): Request(body=lambda ids, kind: {"value": "0" * 64}),
    ("POST", f"{V1}/draws/{{draw_id}}/coupons"): Request(
        body=lambda ids, kind: {"currency": "EUR", "amount": 100, "picks": [["2:1"]] * 8}
    ),
    ("POST", f"{V1}/admin/draws"): Request(body=lambda ids, kind: draw_body(f"new-draw-{serial()}")),
    ("POST", f"{V1}/admin/draws/{{draw_id}}/announce"): Request(ids=ADMIN_DRAW),
    ("PUT", f"{V1}/admin/draws/{{draw_id}}/matches/{{no}}/kickoff"): Request(
        body=lambda ids, kind: {"kickoff": (CLOSE_AT + timedelta(hours=1)).isoformat()}, ids=ADMIN_DRAW
    ),
    ("PUT", f"{V1}/admin/draws/{{draw_id}}/matches/{{no}}/result"): Request(
        body=lambda ids, kind: {"home": 1, "away": 0}, ids=ADMIN_DRAW
    ),
    ("POST", f"{V1}/admin/draws/{{draw_id}}/matches/{{no}}/void"): Request(
        body=lambda ids, kind: {"reason": "match abandoned"}, ids=ADMIN_DRAW
    ),
    ("POST", f"{V1}/admin/draws/{{draw_id}}/settle"): Request(ids=ADMIN_DRAW),
    ("POST", f"{V1}/admin/draws/{{draw_id}}/cancel"): Request(body=lambda ids, kind: REASON, ids=ADMIN_DRAW),
    ("POST", f"{V1}/players/{{player_id}}/accounts"): Request(body=lambda ids, kind: {"currency": "EUR"}),
    ("POST", f"{V1}/players/{{player_id}}/deposits"): Request(body=lambda ids, kind: CASH),
    ("POST", f"{V1}/players/{{player_id}}/withdrawals"): Request(body=lambda ids, kind: CASH),
    ("POST", f"{V1}/concessionaires/{{concessionaire_id}}/funding"): Request(
        body=lambda ids, kind: {"account_kind": "sponsorship", "currency": "EUR", "amount": 100}
    ),
    ("PUT", f"{V1}/players/{{player_id}}/protection/deposit-limits"): Request(
        body=lambda ids, kind: {"currency": "EUR", "month": 10_000_000}
    ),
    ("PUT", f"{V1}/players/{{player_id}}/protection/session"): Request(
        body=lambda ids, kind: {"reality_check_minutes": 60}
    ),
    ("POST", f"{V1}/players/{{player_id}}/protection/self-exclusion"): Request(
        body=lambda ids, kind: {"term": "30_days"}
    ),
    ("POST", f"{V1}/reports"): Request(
        body=lambda ids, kind: {"offender_id": ids["third_player_id"], "offence": "other", "description": "slow play"}
    ),
    ("POST", f"{V1}/reports/{{report_id}}/dismissal"): Request(prepare=_fresh_report),
    ("POST", f"{V1}/sanctions"): Request(
        body=lambda ids, kind: _sanction_body(ids["report_id"]), prepare=_fresh_report
    ),
    ("POST", f"{V1}/sanctions/{{sanction_id}}/appeal"): Request(
        body=lambda ids, kind: {"grounds": "a joke between friends"}
    ),
    ("POST", f"{V1}/sanctions/{{sanction_id}}/appeal/decision"): Request(
        body=lambda ids, kind: {"outcome": "sanction_upheld"}
    ),
}


# -- the tests -------------------------------------------------------------------------------------------------------
@pytest_asyncio.fixture(scope="module", loop_scope="module")
async def platform(tmp_path_factory: pytest.TempPathFactory) -> AsyncIterator[LivePlatform]:
    async with live_platform(tmp_path_factory.mktemp("platform")) as started:
        yield started


@pytest_asyncio.fixture(scope="module", loop_scope="module")
async def objects(platform: LivePlatform) -> AsyncIterator[Objects]:
    api = Api(platform.gateway)
    try:
        yield await build_objects(await build_world(api))
    finally:
        await api.aclose()


def _served(platform: LivePlatform) -> set[tuple[str, str]]:
    served = set()
    for route in api_routes(platform.apps["gateway"]):
        for method in route.methods or {SOCKET}:
            if method != "HEAD":
                served.add((method, route.path))
    return served


async def test_every_route_is_declared(platform: LivePlatform) -> None:
    served = _served(platform)
    assert sorted(served - EXPECTED.keys()) == [], "routes nobody declared who may call: add them to EXPECTED"
    assert sorted(EXPECTED.keys() - served) == [], "declared routes the gateway does not serve"
    assert set(REQUESTS) <= served


class _Ids(dict[str, str]):
    def __missing__(self, name: str) -> str:
        return f"no-{name}"


def _fill(template: str, ids: dict[str, str]) -> str:
    """The path under `/api/v1`, each placeholder filled (one without an object: a made-up id)."""
    return template.removeprefix(V1).replace(":path}", "}").format_map(_Ids(ids))


async def _outcome_of_call(objects: Objects, route: tuple[str, str], kind: str) -> tuple[int, str]:
    method, template = route
    request = REQUESTS.get(route, Request())
    ids = dict(objects.ids)
    ids.update({name: objects.ids[other] for name, other in request.ids.items()})
    if request.prepare is not None:
        ids.update(await request.prepare(objects))
    answer = await objects.api.call(
        method,
        _fill(template, ids),
        objects.caller(kind),
        json=request.body(ids, kind) if request.body else None,
        params=request.params(ids) if request.params else None,
        money=True,
    )
    return answer.status_code, answer.text[:300]


async def _outcome_of_socket(objects: Objects, kind: str) -> tuple[int, str]:
    """A welcome is 200; a close code 44xx is the HTTP status 4xx."""
    try:
        socket = await LiveSocket.open(objects.api.gateway_url, objects.caller(kind), "lobby")
    except SocketRefused as refused:
        return refused.code - 4000, refused.reason
    await socket.close()
    return 200, "welcome"


def _agrees(expected: str | int, status: int) -> bool:
    """An allowed call succeeds, or is admitted and refused by its object's state (409: a draw already
    cancelled, a hand still in progress); a refused one answers the declared status."""
    if expected == ALLOWED:
        return status < 400 or status == 409
    return status == expected


# The player's self-exclusion cannot be undone (issue 17) and stops their play: called last, once nothing else needs
# the player to play.
IRREVERSIBLE = frozenset({("POST", f"{V1}/players/{{player_id}}/protection/self-exclusion")})


@pytest.mark.parametrize("route", sorted(EXPECTED, key=lambda route: (route in IRREVERSIBLE, route)), ids=" ".join)
async def test_each_kind_of_caller_gets_what_the_route_declares(objects: Objects, route: tuple[str, str]) -> None:
    access = EXPECTED[route]
    disagreements = []
    for kind in KINDS:
        if route[0] == SOCKET:
            status, detail = await _outcome_of_socket(objects, kind)
        else:
            status, detail = await _outcome_of_call(objects, route, kind)
        if not _agrees(access.outcome(kind), status):
            disagreements.append((kind, access.outcome(kind), status, detail))
    assert disagreements == []


async def test_an_invalid_request_is_refused_after_the_access_check(objects: Objects) -> None:
    """A body of the wrong shape does not tell an anonymous caller what the route expects: 401 first."""
    for method, template in sorted(EXPECTED):
        if method in ("POST", "PUT", "PATCH") and EXPECTED[(method, template)] is not EVERYONE:
            answer = await objects.api.call(method, _fill(template, objects.ids), json=[None])
            assert answer.status_code == 401, (method, template, answer.text)
