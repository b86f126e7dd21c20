"""WebSocket channel names and which socket may carry them.

Channels: `lobby`, `table:<id>`, `tournament:<id>`, `draw:<id>`. Table channels travel on table sockets and
everything else on lobby sockets, so that losing the lobby connection leaves the tables alone (P-13.4).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from enum import StrEnum


class SocketKind(StrEnum):
    LOBBY = "lobby"
    TABLE = "table"


class ChannelKind(StrEnum):
    LOBBY = "lobby"
    TABLE = "table"
    TOURNAMENT = "tournament"
    DRAW = "draw"


# The ids the services give: letters, digits, '_' and '-', in parts joined by single '.' or '/' (the director
# names a table `<tournament>.<phase>.<n>`). No spaces, no ':' (the separator), no `..`.
ENTITY_ID_PATTERN = r"^[A-Za-z0-9_-]+(?:[./][A-Za-z0-9_-]+)*$"
ENTITY_ID_MAX = 64
_ID = re.compile(ENTITY_ID_PATTERN)


@dataclass(frozen=True, slots=True)
class Channel:
    kind: ChannelKind
    entity_id: str | None = None

    @property
    def name(self) -> str:
        return self.kind.value if self.entity_id is None else f"{self.kind.value}:{self.entity_id}"

    @property
    def socket(self) -> SocketKind:
        return SocketKind.TABLE if self.kind is ChannelKind.TABLE else SocketKind.LOBBY

    @classmethod
    def parse(cls, name: str) -> Channel:
        kind_text, _, entity_id = name.partition(":")
        try:
            kind = ChannelKind(kind_text)
        except ValueError:
            raise ValueError(f"unknown channel {name!r}") from None
        if kind is ChannelKind.LOBBY:
            if entity_id:
                raise ValueError("the lobby channel has no id")
            return cls(kind)
        if len(entity_id) > ENTITY_ID_MAX or not _ID.fullmatch(entity_id):
            raise ValueError(f"channel {name!r} needs an id of letters, digits, '_', '-', '.' or '/'")
        return cls(kind, entity_id)
