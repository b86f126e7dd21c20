"""Refresh-token rotation: each refresh token works once and is replaced by a new one of the same family.

Presenting a token that was already used means it was copied (by an attacker, or the rightful client after
an attacker used it first): the whole family is revoked, ending the session everywhere.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from enum import StrEnum


class RefreshVerdict(StrEnum):
    VALID = "valid"
    EXPIRED = "expired"
    REVOKED = "revoked"  # logged out, or the family was revoked
    REUSED = "reused"  # already exchanged once: revoke the family


@dataclass(frozen=True, slots=True)
class RefreshTokenState:
    expires_at: datetime
    used_at: datetime | None
    revoked_at: datetime | None


def judge(token: RefreshTokenState, now: datetime) -> RefreshVerdict:
    if token.used_at is not None:
        return RefreshVerdict.REUSED
    if token.revoked_at is not None:
        return RefreshVerdict.REVOKED
    if now >= token.expires_at:
        return RefreshVerdict.EXPIRED
    return RefreshVerdict.VALID
