"""P-1.4 end to end, on the whole platform: while a hand is played, before the flop, a player's hole cards and
the undealt deck reach nobody but that player — not the opponent at the same table, not another player, not
the staff of the concessionaire that runs the tournament nor of another, not the network's administrator, not a
partner system, not an anonymous caller — through any route or stream they can reach: the table's state and
hands, the hand's history and audit, the tournament's pages, the table, tournament and lobby streams (their
live messages and their replays). Once the hand has ended, the audit shows the deck and every hole card (P-1.3)
to the administrator and to the organising concessionaire's operator, and is what the search looks for.
"""

from __future__ import annotations

import asyncio
import json
import re
from collections.abc import AsyncIterator
from typing import Any

import pytest
import pytest_asyncio
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
    World,
    build_world,
)
from live_platform import live_platform
from live_socket import LiveSocket, SocketRefused

pytestmark = [pytest.mark.slow, pytest.mark.asyncio(loop_scope="module")]

SEATED = (PLAYER, OTHER_PLAYER)
ON_SOCKETS = (PLAYER, OTHER_PLAYER, OPERATOR, OTHER_OPERATOR, ADMIN)
PHH_HOLE_CARDS = re.compile(r"d dh (p\d+) ((?:[2-9TJQKA][cdhs]){2})")
Seen = list[tuple[str, str, str]]  # (viewer kind, where, what they received)


@pytest_asyncio.fixture(scope="module", loop_scope="module")
async def world(tmp_path_factory: pytest.TempPathFactory) -> AsyncIterator[World]:
    async with live_platform(tmp_path_factory.mktemp("platform")) as platform:
        api = Api(platform.gateway)
        try:
            yield await build_world(api)
        finally:
            await api.aclose()


async def _live_hand(world: World) -> str:
    """The hand being played at the table (the next one is dealt as soon as one ends)."""
    for _ in range(200):
        table = (await world.api.call("GET", f"/tables/{world.table_id}", world[OPERATOR], expect=200)).json()
        if table["hand"]:
            return str(table["hand"]["hand_id"])
        await asyncio.sleep(0.05)
    raise AssertionError("no hand is dealt at the table")


@pytest_asyncio.fixture(scope="module", loop_scope="module")
async def seated(world: World) -> AsyncIterator[None]:
    """The seated players' clients keep their table open, as clients do: a player whose last table
    connection goes is disconnected, and the table plays their hands for them (P-13.2)."""
    sockets = [await LiveSocket.open(world.api.gateway_url, world[kind], "table") for kind in SEATED]
    for socket in sockets:
        await socket.subscribe(f"table:{world.table_id}")
    yield
    for socket in sockets:
        await socket.close()


def _reads(world: World, hand: str) -> list[str]:
    """Every REST read that shows something of the table, its hand or its tournament."""
    table, tournament = world.table_id, world.tournament_id
    return [
        f"/tables/{table}",
        f"/tables/{table}/hands",
        f"/hands/{hand}/phh",
        f"/hands/{hand}/audit",
        "/tournaments",
        f"/tournaments/{tournament}",
        f"/tournaments/{tournament}/standings",
        f"/players/{world.player_id}/tournaments",
        f"/players/{world.other_player_id}/tournaments",
    ]


async def _read_everything(world: World, hand: str) -> Seen:
    seen: Seen = []
    for kind in KINDS:
        for path in _reads(world, hand):
            answer = await world.api.call("GET", path, world[kind])
            seen.append((kind, f"GET {path} -> {answer.status_code}", answer.text))
    return seen


def _code(answer: Any) -> tuple[int, str]:
    return answer.status_code, answer.json().get("code")


async def _watch(world: World, kind: str, hand: str) -> list[LiveSocket]:
    """The table's stream on a table socket and the tournament's and the lobby's on a lobby socket, each with
    its replay; the table channel once more by resuming from its start."""
    gateway = world.api.gateway_url
    table_channel = f"table:{world.table_id}"
    table = await LiveSocket.open(gateway, world[kind], "table")
    subscribed, *replayed = await table.subscribe(table_channel, history=True)
    assert subscribed["type"] == "subscribed", subscribed
    events = {(frame["data"]["event"], frame["data"]["payload"].get("hand_id")) for frame in replayed}
    assert ("table.hand.started", hand) in events, "the replay holds the hand in progress"
    await table.unsubscribe(table_channel)
    await table.subscribe(table_channel, epoch=subscribed["epoch"], last_seq=0)
    lobby = await LiveSocket.open(gateway, world[kind], "lobby")
    await lobby.subscribe(f"tournament:{world.tournament_id}", history=True)
    await lobby.subscribe("lobby", history=True)
    return [table, lobby]


def _own_cards(socket: LiveSocket, hand: str) -> list[str]:
    """The hole cards the table's stream gave its owner for the hand."""
    for text in socket.received:
        if '"table.hole_cards.dealt"' in text and hand in text:
            cards: list[str] = json.loads(text)["data"]["payload"]["cards"]
            return cards
    raise AssertionError("the owner's table stream holds no hole cards for the hand")


async def _end_the_hand(world: World, hand: str) -> dict[str, Any]:
    """The player to act folds; the audit once the hand has ended (refused until then)."""
    table = (await world.api.call("GET", f"/tables/{world.table_id}", world[OPERATOR], expect=200)).json()
    to_act = next(seat["player_id"] for seat in table["seats"] if seat["seat"] == table["hand"]["to_act"])
    actor = next(world[kind] for kind in SEATED if world[kind].subject_id == to_act)
    body = {"hand_id": hand, "action": "fold"}
    await world.api.call("POST", f"/tables/{world.table_id}/actions", actor, json=body, expect=202)
    path = f"/hands/{hand}/audit"
    for _ in range(200):
        answer = await world.api.call("GET", path, world[ADMIN])
        if answer.status_code == 200:
            audit: dict[str, Any] = answer.json()
            return audit
        assert _code(answer) == (409, "hand_in_progress")
        await asyncio.sleep(0.05)
    raise AssertionError("the hand did not end")


def _secrets(audit: dict[str, Any], holes: dict[str, list[str]]) -> dict[str, set[str]]:
    """What would betray a card, per viewer: any card of the deck as a quoted string (before the flop no card
    is public) but the viewer's own two, and each other player's two cards written together (PHH)."""
    recorded = {"".join(cards) for _, cards in PHH_HOLE_CARDS.findall(audit["phh"])}
    assert {"".join(cards) for cards in holes.values()} == recorded, "each owner saw their own cards"
    secrets = {}
    for viewer in KINDS:
        own = set(holes.get(viewer, ()))
        tokens = {f'"{card}"' for card in audit["deck"] if card not in own}
        for owner, (first, second) in holes.items():
            if owner != viewer:
                tokens |= {first + second, second + first}
        secrets[viewer] = tokens
    return secrets


@pytest.mark.usefixtures("seated")
async def test_p1_4_nobody_but_the_owner_sees_a_hole_card_or_the_deck_during_a_hand(world: World) -> None:
    hand = await _live_hand(world)
    seen = await _read_everything(world, hand)
    sockets = {kind: await _watch(world, kind, hand) for kind in ON_SOCKETS}
    for kind in (ANONYMOUS, PARTNER, OTHER_PARTNER):
        with pytest.raises(SocketRefused) as refused:
            await LiveSocket.open(world.api.gateway_url, world[kind], "table")
        assert refused.value.code == 4401
    holes = {kind: _own_cards(sockets[kind][0], hand) for kind in SEATED}
    for kind, opened in sockets.items():
        for socket in opened:
            seen += [(kind, "stream", text) for text in socket.received]
            await socket.close()

    secrets = _secrets(await _end_the_hand(world, hand), holes)

    leaks = [(kind, where) for kind, where, text in seen for token in secrets[kind] if token in text]
    assert leaks == []
    assert len(seen) > len(KINDS) * len(_reads(world, hand)), "the streams were searched too"


@pytest.mark.usefixtures("seated")
async def test_p1_4_the_audit_waits_for_the_end_of_the_hand_and_stays_in_its_concessionaire(world: World) -> None:
    """Mid-hand, the engine refuses the audit and the gateway relays it: 409 `hand_in_progress`, for the
    organiser's operator and the administrator alike; another concessionaire's operator gets 404, as for a
    hand that does not exist; players and partners may not audit."""
    hand = await _live_hand(world)
    path = f"/hands/{hand}/audit"
    expected = {
        ANONYMOUS: (401, "missing_credentials"),
        PLAYER: (403, "role_not_allowed"),
        OTHER_PLAYER: (403, "role_not_allowed"),
        OPERATOR: (409, "hand_in_progress"),
        OTHER_OPERATOR: (404, "hand_not_found"),
        ADMIN: (409, "hand_in_progress"),
        PARTNER: (403, "role_not_allowed"),
        OTHER_PARTNER: (403, "role_not_allowed"),
    }
    assert {kind: _code(await world.api.call("GET", path, world[kind])) for kind in KINDS} == expected

    await _end_the_hand(world, hand)
    assert (await world.api.call("GET", path, world[OPERATOR])).status_code == 200
    assert _code(await world.api.call("GET", path, world[OTHER_OPERATOR])) == (404, "hand_not_found")
