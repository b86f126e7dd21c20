"""Whether a player may play now — register, bet, act at a table: not banned (P-12.5), not self-excluded and,
in their own session, within its time limit (issue 17). Refused in that order, as 403s the client can show."""

from __future__ import annotations

from datetime import datetime

from gateway.adapters.identity_store import PlayerRecord
from gateway.adapters.standing_store import PlayStanding
from gateway.domain.restrictions import standing_at
from gateway.service.protection import raise_if_play_refused
from gateway.service.restrictions import raise_if_banned


def refuse_unless_in_good_standing(standing: PlayStanding, now: datetime, *, own_session: bool) -> PlayerRecord | None:
    """The player of `standing` (None: no such player, and nothing refused). `own_session` False: someone else (a
    partner, an operator) acts for the player, so the session limit, which is the player's own, does not apply.
    Every play request asks, each action at a table, each coupon: the standings are read together
    (`standing_reads`)."""
    raise_if_banned(standing_at(standing.restrictions, now))
    raise_if_play_refused(standing.protection, now, own_session=own_session)
    return standing.player
