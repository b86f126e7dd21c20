"""One bot playing one tournament through the public API, as a person with the web client would:

1. register (`POST /tournaments/{id}/registrations`, paying the buy-in);
2. follow the lobby and the tournament on the lobby socket, learning its table when it is seated (the private
   `table.table.opened` / `table.player.seated` on `lobby`, or `GET /players/{id}/tournaments`);
3. on the table socket, answer each `table.action.requested` addressed to it with a random legal action, and
   send a random contribution to the deck of the table's next hand when it joins a table and whenever a hand it
   is dealt in starts (docs/fair-deal.md), as the web client does;
4. stop when it is eliminated or the tournament ends (or is cancelled).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import random
import secrets
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from gateway.bots.api import PublicApi
from gateway.bots.strategy import choose
from gateway.domain.lobby_digest import unpacked

log = logging.getLogger(__name__)

OVER = frozenset({"tournament.tournament.finished", "tournament.tournament.cancelled"})


@dataclass
class Outcome:
    tournament_id: str
    position: int | None = None
    prize_cents: int = 0
    actions: int = 0
    tables: list[str] = field(default_factory=list)


class BotPlayer:
    def __init__(self, api: PublicApi, rng: random.Random, *, think_seconds: tuple[float, float] = (0.2, 1.0)) -> None:
        self.api = api
        self._rng = rng
        self._think = think_seconds

    async def register(self, tournament_id: str) -> None:
        await self.api.call("POST", f"/tournaments/{tournament_id}/registrations", json={"entry": "buy_in"}, money=True)

    async def play(self, tournament_id: str) -> Outcome:
        """Play a tournament the bot is registered for, to its end (for the bot)."""
        outcome = Outcome(tournament_id)
        tables: asyncio.Queue[str] = asyncio.Queue()
        async with self.api.socket("lobby") as lobby, self.api.socket("table") as table:
            for channel in ("lobby", f"tournament:{tournament_id}"):
                await lobby.subscribe(channel)
            await self._current_table(tournament_id, tables)
            player = asyncio.create_task(self._play_tables(table, tables, outcome))
            try:
                async for frame in lobby.frames():
                    if frame.get("type") != "message":
                        continue
                    if any(self._follow(news, tournament_id, tables, outcome) for news in unpacked(frame["data"])):
                        break
            finally:
                player.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await player
        return outcome

    def _follow(
        self, message: Mapping[str, Any], tournament_id: str, tables: asyncio.Queue[str], outcome: Outcome
    ) -> bool:
        """Handle one lobby message; True once the tournament is over for the bot."""
        event, payload = message.get("event"), message.get("payload", {})
        me = self.api.player_id
        if event == "table.table.opened" and payload.get("tournament_id") == tournament_id:
            if any(seat["player_id"] == me for seat in payload["seats"]):
                tables.put_nowait(payload["table_id"])
        elif event == "table.player.seated" and payload["player"]["player_id"] == me:
            if payload.get("tournament_id") == tournament_id:
                tables.put_nowait(payload["table_id"])
        elif event == "tournament.player.eliminated" and payload.get("player_id") == me:
            outcome.position, outcome.prize_cents = payload["position"], payload["prize_cents"]
            return True
        elif event in OVER and payload.get("tournament_id") == tournament_id:
            for ranked in payload.get("ranking", []):
                if ranked["player_id"] == me:
                    outcome.position, outcome.prize_cents = ranked["position"], ranked["prize_cents"]
            return True
        return False

    async def _current_table(self, tournament_id: str, tables: asyncio.Queue[str]) -> None:
        """A tournament that started before the lobby socket opened: its table comes from the director."""
        mine = await self.api.call("GET", f"/players/{self.api.player_id}/tournaments")
        for entry in mine if isinstance(mine, list) else []:
            if entry.get("tournament_id") == tournament_id and entry.get("table_id"):
                tables.put_nowait(entry["table_id"])

    async def _play_tables(self, socket: Any, tables: asyncio.Queue[str], outcome: Outcome) -> None:
        """Follow the bot's current table (a move brings a new one) and act on it; one reader for the socket."""
        reader = asyncio.create_task(self._act_on(socket, outcome))
        current: str | None = None
        try:
            while True:
                table_id = await tables.get()
                if table_id == current:
                    continue
                if current is not None:
                    await socket.unsubscribe(f"table:{current}")
                current = table_id
                outcome.tables.append(table_id)
                await socket.subscribe(f"table:{table_id}", history=True)
                await socket.send(contribution(table_id))
        finally:
            reader.cancel()

    async def _act_on(self, socket: Any, outcome: Outcome) -> None:
        me = self.api.player_id
        async for frame in socket.frames():
            if frame.get("type") != "message":
                continue
            event, payload = frame["data"].get("event"), frame["data"].get("payload", {})
            if event == "table.hand.started" and payload.get("next_deck_commitment"):
                if any(seat["player_id"] == me for seat in payload.get("seats", [])):
                    await socket.send(contribution(payload["table_id"]))
                continue
            if payload.get("player_id") != me:
                continue
            if event == "table.action.requested":
                await asyncio.sleep(self._rng.uniform(*self._think))
                await socket.send(self._act(payload, outcome))
            elif event == "table.sitting_out.changed" and payload.get("sitting_out"):
                # Put out by a timeout or a lost connection: back in at once, as a person would click.
                await socket.send({"type": "sit_out", "table_id": payload["table_id"], "sitting_out": False})
            elif event == "table.action.rejected":
                log.warning("bot %s: action refused: %s %s", me, payload.get("code"), payload.get("message"))

    def _act(self, request: Mapping[str, Any], outcome: Outcome) -> dict[str, Any]:
        decision = choose(request, self._rng)
        outcome.actions += 1
        frame: dict[str, Any] = {
            "type": "act",
            "table_id": request["table_id"],
            "hand_id": request["hand_id"],
            "action": decision.action,
            "ref": f"{request['hand_id']}:{outcome.actions}",
        }
        if decision.amount is not None:
            frame["amount"] = decision.amount
        return frame


def contribution(table_id: str) -> dict[str, Any]:
    """A random value for the deck of the table's next hand: from the system's secure generator, not the bot's
    seeded one, so that nobody can predict it (docs/fair-deal.md)."""
    return {"type": "contribute", "table_id": table_id, "value": secrets.token_hex(32)}
