"""The lobby's schedule as staff keep it from the console (issue 17): list, create and disable entries.

An administrator's entry is the network's (no sponsor), an operator's opens tournaments of their own
concessionaire, and operators see and disable their own concessionaire's entries only. An entry is checked
when created as the tournament it opens would be (the same 422 `validation_failed` with every problem), so it
never fails later in the background. Disabling opens nothing more: an occurrence already registering stays (it
may hold registrations), and an entry's recurring sit'n'go opens no successor when it fills.
"""

from __future__ import annotations

from typing import Any

from platform_kit.errors import Conflict, NotFound
from pydantic import ValidationError
from sqlalchemy.ext.asyncio import AsyncSession

from tournament_director.adapters import lobby_entries, tournaments
from tournament_director.adapters.lobby_entries import StoredEntry
from tournament_director.domain.issues import Issue
from tournament_director.domain.lobby_schedule import LobbyEntry, creation_body, tournament_id
from tournament_director.service import definitions, recurring
from tournament_director.service.context import Director
from tournament_director.service.principals import Principal, Role

#: What the schedule sets itself in each tournament it opens.
SET_BY_THE_SCHEDULE = frozenset({"tournament_id", "starts_at", "recurring", "concessionaire_id"})


def view(stored: StoredEntry) -> dict[str, Any]:
    return {
        "key": stored.entry.key,
        "concessionaire_id": stored.concessionaire_id,
        "body": stored.entry.body,
        "every_minutes": stored.entry.every_minutes,
        "enabled": stored.enabled,
        "created_by": stored.created_by,
        "created_at": stored.created_at.isoformat(),
        "disabled_at": None if stored.disabled_at is None else stored.disabled_at.isoformat(),
        "source": "console",
    }


def configured(entry: LobbyEntry) -> dict[str, Any]:
    """An entry of the settings (TOURNAMENT_DIRECTOR_LOBBY_SCHEDULE), shown beside them: changed by deployment."""
    return {
        "key": entry.key,
        "concessionaire_id": None,
        "body": entry.body,
        "every_minutes": entry.every_minutes,
        "enabled": True,
        "created_by": None,
        "created_at": None,
        "disabled_at": None,
        "source": "settings",
    }


async def listed(director: Director, principal: Principal) -> list[dict[str, Any]]:
    """Administrators: the settings' entries and every stored one; an operator: their concessionaire's."""
    principal.require_staff()
    own = principal.concessionaire_id if principal.role is Role.OPERATOR else None
    async with director.runtime.units.reading() as session:
        stored = await lobby_entries.listed(session, concessionaire_id=own)
    if principal.role is Role.OPERATOR:
        return [view(entry) for entry in stored]
    return [configured(entry) for entry in director.settings.lobby_entries()] + [view(entry) for entry in stored]


async def create(director: Director, principal: Principal, body: dict[str, Any]) -> dict[str, Any]:
    principal.require_staff()
    entry = _entry(body)
    sponsor = principal.concessionaire_id if principal.role is Role.OPERATOR else None
    definitions.build_definition({**creation_body(entry, director.now()), "concessionaire_id": sponsor})
    taken = {e.key for e in director.settings.lobby_entries()}
    async with director.unit() as uow:
        if entry.key in taken or await lobby_entries.get(uow.session, entry.key) is not None:
            raise Conflict("lobby_entry_exists", f"The lobby's schedule has an entry {entry.key!r} already.")
        await lobby_entries.insert_entry(uow.session, entry, sponsor, principal.subject_id, director.now())
        stored = await lobby_entries.get(uow.session, entry.key)
    assert stored is not None
    return view(stored)


async def disable(director: Director, principal: Principal, key: str) -> dict[str, Any]:
    """Idempotent: a disabled entry answers as it is."""
    principal.require_staff()
    async with director.unit() as uow:
        stored = await lobby_entries.get(uow.session, key)
        if stored is None or (
            principal.role is Role.OPERATOR and stored.concessionaire_id != principal.concessionaire_id
        ):
            raise NotFound("lobby_entry_not_found", f"No entry {key!r} in your lobby schedule.")
        await lobby_entries.disable(uow.session, key, director.now())
        if stored.entry.every_minutes is None:
            await _end_chain(uow.session, tournament_id(stored.entry))
        stored = await lobby_entries.get(uow.session, key)
    assert stored is not None
    return view(stored)


async def _end_chain(session: AsyncSession, first: str) -> None:
    """The entry's recurring sit'n'go and each successor it opened (service/recurring.py) open no successor any
    more: the chain ends with the one open now."""
    current: str | None = first
    while current is not None and await tournaments.get(session, current) is not None:
        await tournaments.stop_recurring(session, current)
        current = recurring.successor_id(current)


def _entry(body: dict[str, Any]) -> LobbyEntry:
    try:
        entry = LobbyEntry.model_validate(body)
    except ValidationError as error:
        raise definitions.invalid(
            [Issue(".".join(str(p) for p in detail["loc"]), detail["type"], detail["msg"]) for detail in error.errors()]
        ) from None
    if fixed := sorted(SET_BY_THE_SCHEDULE & set(entry.body)):
        raise definitions.invalid(
            [Issue(f"body.{name}", "not_allowed", "The schedule sets it for each tournament.") for name in fixed]
        )
    return entry
