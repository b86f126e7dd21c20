"""Restrictions from the sanctions registry (P-12.3–P-12.5) as the gateway enforces them.

The rating service owns sanctions; the gateway keeps, per player, the restrictions currently decided
(`banned`, `chat_banned`), each with an optional end, and refuses what they forbid.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime
from enum import StrEnum


class RestrictionKind(StrEnum):
    BANNED = "banned"  # P-12.5: may neither log in nor register (for tournaments, bets); chat included
    CHAT_BANNED = "chat_banned"  # P-12.3/P-12.4: may play but not chat


@dataclass(frozen=True, slots=True)
class Restriction:
    kind: RestrictionKind
    until: datetime | None  # None: permanent
    reason: str

    def in_force_at(self, at: datetime) -> bool:
        return self.until is None or at < self.until


@dataclass(frozen=True, slots=True)
class Standing:
    """What the player may do at one instant."""

    may_log_in: bool = True
    may_chat: bool = True
    ban: Restriction | None = None  # the ban in force that stops log-in, the longest one if several

    @property
    def may_register(self) -> bool:
        """P-12.5: banned players cannot register (for tournaments or draws) — the same rule as log-in."""
        return self.may_log_in


GOOD_STANDING = Standing()


def standing_at(restrictions: Iterable[Restriction], at: datetime) -> Standing:
    in_force = [r for r in restrictions if r.in_force_at(at)]
    bans = [r for r in in_force if r.kind is RestrictionKind.BANNED]
    chat_bans = [r for r in in_force if r.kind is RestrictionKind.CHAT_BANNED]
    # A permanent ban (until None) outlasts any temporary one.
    longest = max(bans, key=lambda r: (r.until is None, r.until or at), default=None)
    return Standing(may_log_in=not bans, may_chat=not bans and not chat_bans, ban=longest)
