"""The people of a live platform (`live_platform.py`) and what they own, built through the public API as a
deployment's users would: two concessionaires ("this" one and another), an operator and a partner API key of
each, the network's administrator, and two players of this concessionaire seated against each other in a
heads-up sit'n'go its operator organised, its first hand dealt and waiting for a decision.

Callers are named by kind (`KINDS`): the tests declare, per kind, what each may do or see.
"""

from __future__ import annotations

import asyncio
import uuid
from dataclasses import dataclass
from typing import Any

import httpx
from gateway_test_support import ADMIN_EMAIL, ADMIN_PASSWORD, PASSWORD

ANONYMOUS = "anonymous"
PLAYER = "player"  # owns the objects the tests name: the player, their coupon, sanction, seat
OTHER_PLAYER = "other_player"  # the same concessionaire's other player, seated at the same table
OPERATOR = "operator"  # of this concessionaire, which organised the tournament
OTHER_OPERATOR = "other_operator"
ADMIN = "admin"
PARTNER = "partner"  # an API key of this concessionaire
OTHER_PARTNER = "other_partner"
KINDS = (ANONYMOUS, PLAYER, OTHER_PLAYER, OPERATOR, OTHER_OPERATOR, ADMIN, PARTNER, OTHER_PARTNER)
STARTING_MONEY = 10_000


@dataclass(frozen=True, slots=True)
class Caller:
    """Credentials: an access token, a partner's API key, or neither (anonymous)."""

    token: str | None = None
    api_key: str | None = None
    subject_id: str | None = None

    def headers(self) -> dict[str, str]:
        if self.token:
            return {"Authorization": f"Bearer {self.token}"}
        if self.api_key:
            return {"X-API-Key": self.api_key}
        return {}


class Api:
    """The gateway's `/api/v1`, as `caller` calls it."""

    def __init__(self, gateway_url: str) -> None:
        self.gateway_url = gateway_url
        self.http = httpx.AsyncClient(base_url=f"{gateway_url}/api/v1", timeout=30.0)

    async def aclose(self) -> None:
        await self.http.aclose()

    async def call(
        self,
        method: str,
        path: str,
        caller: Caller | None = None,
        *,
        json: Any = None,
        params: Any = None,
        money: bool = False,
        expect: int | None = None,
    ) -> httpx.Response:
        """`money`: with a fresh Idempotency-Key (each call is one intended operation)."""
        headers = caller.headers() if caller else {}
        if money:
            headers["Idempotency-Key"] = str(uuid.uuid4())
        answer = await self.http.request(method, path, headers=headers, json=json, params=params)
        if expect is not None:
            assert answer.status_code == expect, f"{method} {path}: {answer.status_code} {answer.text}"
        return answer

    async def log_in_staff(self, email: str, password: str) -> Caller:
        body = {"email": email, "password": password}
        session = (await self.call("POST", "/auth/staff/login", json=body, expect=200)).json()
        return Caller(token=session["access_token"], subject_id=session["principal"]["id"])

    async def sign_up(self, concessionaire_code: str, nickname: str) -> Caller:
        body = {
            "concessionaire": concessionaire_code,
            "nickname": nickname,
            "email": f"{nickname.lower()}@players.example",
            "date_of_birth": "1990-05-17",
            "password": PASSWORD,
        }
        session = (await self.call("POST", "/auth/signup", json=body, expect=201)).json()
        return Caller(token=session["access_token"], subject_id=session["principal"]["id"])


@dataclass(frozen=True, slots=True)
class World:
    api: Api
    callers: dict[str, Caller]
    concessionaire_id: str
    other_concessionaire_id: str
    tournament_id: str
    table_id: str
    hand_id: str

    def __getitem__(self, kind: str) -> Caller:
        return self.callers[kind]

    @property
    def player_id(self) -> str:
        return str(self.callers[PLAYER].subject_id)

    @property
    def other_player_id(self) -> str:
        return str(self.callers[OTHER_PLAYER].subject_id)


async def _concessionaire(api: Api, admin: Caller, code: str) -> str:
    created = await api.call("POST", "/concessionaires", admin, json={"code": code, "name": code.title()}, expect=201)
    return str(created.json()["id"])


async def _operator_and_partner(api: Api, admin: Caller, concessionaire_id: str, code: str) -> tuple[Caller, Caller]:
    email = f"operator@{code}.example"
    path = f"/concessionaires/{concessionaire_id}/operators"
    await api.call("POST", path, admin, json={"email": email, "password": PASSWORD}, expect=201)
    operator = await api.log_in_staff(email, PASSWORD)
    path = f"/concessionaires/{concessionaire_id}/api-keys"
    key = (await api.call("POST", path, operator, json={"label": "partner"}, expect=201)).json()
    return operator, Caller(api_key=key["key"], subject_id=key["id"])


async def _fund(api: Api, partner: Caller, player: Caller) -> None:
    body = {"currency": "EUR", "amount": STARTING_MONEY, "reference": "cash desk"}
    await api.call("POST", f"/players/{player.subject_id}/deposits", partner, json=body, money=True, expect=201)


async def _eventually(api: Api, caller: Caller, path: str, found: str) -> Any:
    """`path`'s JSON once it exists and its `found` field is set: the platform's commands and events take a
    moment to arrive (the director seats a table before the engine has opened it)."""
    for _ in range(200):
        answer = await api.call("GET", path, caller)
        assert answer.status_code in (200, 404), answer.text
        if answer.status_code == 200 and answer.json().get(found):
            return answer.json()
        await asyncio.sleep(0.05)
    raise AssertionError(f"{path} has no {found}: {answer.text}")


async def _heads_up_in_play(api: Api, operator: Caller, players: tuple[Caller, Caller]) -> tuple[str, str, str]:
    """This concessionaire's heads-up sit'n'go with both players: (tournament, table, hand in progress)."""
    definition = {
        "template": "heads_up_sit_and_go",
        "name": "Heads-up",
        "buy_in": {"prize_part_cents": 400, "fee_cents": 100},
    }
    tournament_id = (await api.call("POST", "/tournaments", operator, json=definition, expect=201)).json()[
        "tournament_id"
    ]
    for player in players:
        path = f"/tournaments/{tournament_id}/registrations"
        await api.call("POST", path, player, json={"entry": "buy_in"}, money=True, expect=201)
    tournament = await _eventually(api, operator, f"/tournaments/{tournament_id}", "tables")
    table_id = tournament["tables"][0]["table_id"]
    table = await _eventually(api, operator, f"/tables/{table_id}", "hand")
    return tournament_id, table_id, table["hand"]["hand_id"]


async def build_world(api: Api) -> World:
    admin = await api.log_in_staff(ADMIN_EMAIL, ADMIN_PASSWORD)
    this = await _concessionaire(api, admin, "alpha")
    other = await _concessionaire(api, admin, "beta")
    operator, partner = await _operator_and_partner(api, admin, this, "alpha")
    other_operator, other_partner = await _operator_and_partner(api, admin, other, "beta")
    player = await api.sign_up("alpha", "Anna")
    other_player = await api.sign_up("alpha", "Bruno")
    for seated in (player, other_player):
        await _fund(api, partner, seated)
    tournament_id, table_id, hand_id = await _heads_up_in_play(api, operator, (player, other_player))
    callers = {
        ANONYMOUS: Caller(),
        PLAYER: player,
        OTHER_PLAYER: other_player,
        OPERATOR: operator,
        OTHER_OPERATOR: other_operator,
        ADMIN: admin,
        PARTNER: partner,
        OTHER_PARTNER: other_partner,
    }
    return World(api, callers, this, other, tournament_id, table_id, hand_id)
