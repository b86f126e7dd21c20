"""The lobby's schedule (issue 15, item 13): what the director keeps open so that the lobby is never empty.

An entry is a creation body (`{template, name, buy_in, ...}`, service/definitions.py) under a short key:
- a sit'n'go entry is opened once as a recurring sit'n'go, which opens its own successor whenever it fills;
- a scheduled entry (`every_minutes`) always has its next occurrence registering, starting at the next multiple
  of `every_minutes` since midnight UTC.
Each entry names the tournament it opens by a deterministic id, so replicas and restarts open each one once.
Pure rules: no I/O.
"""

from __future__ import annotations

import hashlib
import json
from datetime import datetime, timedelta
from typing import Any

from pydantic import BaseModel, ConfigDict, Field


class LobbyEntry(BaseModel):
    """One line of the schedule: `body` is what an operator would post to create the tournament."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    key: str = Field(pattern=r"^[a-z0-9-]{1,24}$", description="Names the tournaments this entry opens.")
    body: dict[str, Any] = Field(description="A creation body: {template, name, buy_in, ...definition fields}.")
    every_minutes: int | None = Field(
        None, ge=5, le=1_440, description="Scheduled tournaments: one starts every so many minutes (from 00:00 UTC)."
    )


def next_start(entry: LobbyEntry, now: datetime) -> datetime:
    """The first start of a scheduled entry strictly after `now` (aware, UTC)."""
    assert entry.every_minutes is not None
    midnight = now.replace(hour=0, minute=0, second=0, microsecond=0)
    step = timedelta(minutes=entry.every_minutes)
    slots = (now - midnight) // step + 1
    return midnight + slots * step


def tournament_id(entry: LobbyEntry, starts_at: datetime | None = None) -> str:
    """The id of the tournament an entry opens: the sit'n'go's first, or the occurrence starting at `starts_at`.
    It carries a digest of the body, so that an entry the operator changes opens a new series."""
    digest = hashlib.sha256(json.dumps(entry.body, sort_keys=True).encode()).hexdigest()[:8]
    series = f"lobby-{entry.key}-{digest}"
    return series if starts_at is None else f"{series}-{starts_at:%Y%m%dT%H%M}Z"


def creation_body(entry: LobbyEntry, now: datetime) -> dict[str, Any]:
    """What the director creates for `entry` now: a recurring sit'n'go, or the next scheduled occurrence."""
    if entry.every_minutes is None:
        return {**entry.body, "tournament_id": tournament_id(entry), "recurring": True}
    starts_at = next_start(entry, now)
    return {**entry.body, "tournament_id": tournament_id(entry, starts_at), "starts_at": starts_at.isoformat()}


def _price(prize_part_cents: int, fee_cents: int) -> dict[str, int]:
    return {"prize_part_cents": prize_part_cents, "fee_cents": fee_cents}


#: What a standalone platform opens unless told otherwise: two recurring sit'n'gos and an hourly tournament.
DEFAULT_SCHEDULE: tuple[LobbyEntry, ...] = (
    LobbyEntry(
        key="heads-up",
        body={"template": "heads_up_sit_and_go", "name": "Heads-up Sit & Go", "buy_in": _price(450, 50)},
    ),
    LobbyEntry(
        key="six-max", body={"template": "six_max_sit_and_go", "name": "6-Max Sit & Go", "buy_in": _price(900, 100)}
    ),
    LobbyEntry(
        key="hourly",
        every_minutes=60,
        body={
            "template": "scheduled_mtt",
            "name": "Hourly Hold'em",
            "buy_in": _price(900, 100),
            "max_players": 180,
        },
    ),
)
