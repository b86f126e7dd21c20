"""Player protection use cases (issue 17, docs/player-protection.md): self-exclusion, session time, the history,
and the wallet's deposit limits seen through the gateway.

Each change is one transaction: the setting, its history row and (self-exclusion) the outbox event together.
`refuse_play` and `start_session` work inside the caller's transaction: the table socket's frames and the log-in
call them (the play routes' access check reads the protection together with the restrictions:
service/good_standing.py).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import asdict, dataclass, replace
from datetime import datetime

from platform_kit.errors import Conflict, Forbidden
from platform_kit.events.gateway import PlayerSelfExcluded
from platform_kit.instants import as_utc
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncSession

from gateway.adapters import protection_store
from gateway.adapters.identity_store import PlayerRecord
from gateway.adapters.protection_store import ChangeRecord, ProtectionRecord
from gateway.adapters.service_client import ServiceClient
from gateway.domain.protection import (
    ExclusionTerm,
    PlayRefusal,
    SelfExclusion,
    SessionClock,
    may_replace,
    play_refusal,
)
from gateway.domain.roles import Principal
from gateway.service.context import Context

_SESSION_SETTINGS = (("reality_check", "reality_check_minutes"), ("session_limit", "session_limit_minutes"))


class PlayRefused(Forbidden):
    def __init__(self, refusal: PlayRefusal) -> None:
        until = refusal.until.isoformat() if refusal.until else None
        super().__init__(refusal.code, refusal.message, until=until)


def session_clock(record: ProtectionRecord, now: datetime) -> SessionClock | None:
    if record.session_started_at is None:
        return None
    return SessionClock(record.session_started_at, now, record.rules)


async def refuse_play(
    session: AsyncSession | AsyncConnection, player_id: str, now: datetime, *, own_session: bool
) -> None:
    """403 `player_self_excluded` or `session_time_limit_reached`. `own_session` False: someone else (a partner,
    an operator) acts for the player, so only the self-exclusion applies."""
    raise_if_play_refused(await protection_store.get(session, player_id), now, own_session=own_session)


def raise_if_play_refused(record: ProtectionRecord, now: datetime, *, own_session: bool) -> None:
    refusal = play_refusal(record.exclusion, session_clock(record, now) if own_session else None, now)
    if refusal is not None:
        raise PlayRefused(refusal)


async def start_session(session: AsyncSession, player_id: str, now: datetime) -> None:
    """A log-in starts a new session: its clock (reality checks, the session limit) starts again."""
    await protection_store.put(session, player_id, now, session_started_at=now)


@dataclass(frozen=True, slots=True)
class HistoryEntry:
    setting: str  # self_exclusion | reality_check | session_limit | deposit_limit
    value: str | None
    period: str | None  # deposit limits: day | week | month
    currency: str | None
    changed_by: str
    changed_at: datetime
    effective_from: datetime
    effective_until: datetime | None


class PlayerProtection:
    def __init__(self, context: Context, wallet: ServiceClient) -> None:
        self._context = context
        self._wallet = wallet

    async def current(self, player: PlayerRecord) -> ProtectionRecord:
        async with self._context.units.reading() as session:
            return await protection_store.get(session, player.id)

    async def self_exclude(self, by: Principal, player: PlayerRecord, term: ExclusionTerm) -> SelfExclusion:
        """In force at once; refused (409 `self_exclusion_in_force`) if it would end one in force early."""
        now = self._context.clock.now()
        exclusion = SelfExclusion.starting(term, now)
        async with self._context.units.unit() as uow:
            current = (await protection_store.get(uow.session, player.id)).exclusion
            if not may_replace(current, exclusion, now):
                assert current is not None
                raise Conflict(
                    "self_exclusion_in_force",
                    "A self-exclusion in force cannot be lifted or shortened before its end. / Un'autoesclusione "
                    "in corso non può essere revocata né accorciata prima della scadenza.",
                    until=current.ends_at.isoformat() if current.ends_at else None,
                )
            await protection_store.put(uow.session, player.id, now, **protection_store.exclusion_columns(exclusion))
            change = ChangeRecord("self_exclusion", term.value, by.key, now, now, exclusion.ends_at)
            await protection_store.record_change(uow.session, player.id, change)
            event = PlayerSelfExcluded(
                player_id=player.id,
                concessionaire_id=player.concessionaire_id,
                term=term.value,
                starts_at=now,
                ends_at=exclusion.ends_at,
            )
            await uow.publish(event)
        return exclusion

    async def set_session_rules(
        self, by: Principal, player: PlayerRecord, changes: Mapping[str, int | None]
    ) -> ProtectionRecord:
        """Change the `SessionRules` fields named (None switches one off); one history row per real change.
        A new session limit applies to the session under way too."""
        now = self._context.clock.now()
        async with self._context.units.unit() as uow:
            rules = (await protection_store.get(uow.session, player.id)).rules
            new = replace(rules, **changes)
            for setting, field in _SESSION_SETTINGS:
                after = getattr(new, field)
                if getattr(rules, field) != after:
                    value = None if after is None else str(after)
                    change = ChangeRecord(setting, value, by.key, now, now, None)
                    await protection_store.record_change(uow.session, player.id, change)
            await protection_store.put(uow.session, player.id, now, **asdict(new))
            return await protection_store.get(uow.session, player.id)

    async def net_result(self, player: PlayerRecord, since: datetime) -> dict[str, int]:
        path = f"/internal/v1/players/{player.id}/net-result"
        answer = await self._wallet.request("GET", path, params={"since": since.isoformat()})
        net: dict[str, int] = answer.json()["net"]
        return net

    async def history(self, player: PlayerRecord) -> list[HistoryEntry]:
        """The gateway's settings and the wallet's deposit limits, newest first."""
        async with self._context.units.reading() as session:
            own = await protection_store.history(session, player.id)
        entries = [
            HistoryEntry(
                c.setting, c.value, None, None, c.changed_by, c.changed_at, c.effective_from, c.effective_until
            )
            for c in own
        ]
        answer = await self._wallet.request("GET", f"/internal/v1/players/{player.id}/deposit-limits/history")
        for change in answer.json()["changes"]:
            amount = change["requested_amount"]
            entries.append(
                HistoryEntry(
                    "deposit_limit",
                    None if amount is None else str(amount),
                    change["period"],
                    change["currency"],
                    change["changed_by"],
                    as_utc(datetime.fromisoformat(change["changed_at"])),
                    as_utc(datetime.fromisoformat(change["effective_from"])),
                    None,
                )
            )
        return sorted(entries, key=lambda entry: entry.changed_at, reverse=True)
