"""The `lobby.news` message: several pieces of the lobby's news in one (issue 14, service/lobby_news.py).

    {"event": "lobby.news", "occurred_at": <the latest piece's>, "payload": {"news": [<message>, …]}}

Each piece is a lobby message as it would have come alone (`{"event", "occurred_at", "payload"}`), in the order
they came. A client reads every lobby message through `unpacked` (the web client through its own, app.js).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, TypeVar

DIGEST = "lobby.news"

Message = TypeVar("Message", bound=Mapping[str, Any])


def digest(news: Sequence[Mapping[str, Any]]) -> dict[str, Any]:
    """Several pieces of news as one lobby message."""
    return {
        "event": DIGEST,
        "occurred_at": max(message["occurred_at"] for message in news),
        "payload": {"news": [dict(message) for message in news]},
    }


def unpacked(message: Message) -> list[Message]:
    """The pieces of news a lobby message carries: those of a `lobby.news` message, else the message itself."""
    return list(message["payload"]["news"]) if message.get("event") == DIGEST else [message]
