"""Holds: reserve now, post or void later; the periodic sweep expires the forgotten ones."""

from __future__ import annotations

import asyncio
import logging
from dataclasses import dataclass
from datetime import timedelta

from platform_kit.events.wallet import AccountRef, HoldCreated, HoldExpired, HoldPosted, HoldVoided
from platform_kit.unit_of_work import UnitsOfWork
from sqlalchemy.ext.asyncio import AsyncSession

from wallet.adapters import holds as rows
from wallet.adapters.accounts import Account
from wallet.adapters.holds import HoldRow
from wallet.adapters.ledger import PostedOperation
from wallet.domain import operations as ops
from wallet.domain.accounts import PLAYER_KINDS, AccountKey, AccountKind
from wallet.domain.errors import InvalidAmount
from wallet.domain.holds import HoldStatus, amount_to_post, check_can_resolve
from wallet.domain.ledger import AccountChange
from wallet.domain.operations import check_amount
from wallet.service import balance_updates
from wallet.service.ledger import Ledger, check_acting

log = logging.getLogger(__name__)

# A hold reserves a player's cash for the platform's own accounts: a tournament's escrow, a draw's pool … (never
# a player's, which would make cash into bonus money).
HOLD_DESTINATIONS = frozenset(AccountKind) - PLAYER_KINDS - {AccountKind.CASH}
SWEEP_BATCH = 200


@dataclass(frozen=True)
class Hold:
    row: HoldRow
    account: Account
    destination: Account


class Holds:
    def __init__(self, ledger: Ledger, units: UnitsOfWork) -> None:
        self.ledger = ledger
        self.units = units

    async def create(
        self,
        session: AsyncSession,
        *,
        player_id: str,
        currency: str,
        amount: int,
        destination_kind: AccountKind,
        destination_owner: str,
        ttl: timedelta,
        reference: str | None,
        acting: str | None,
    ) -> Hold:
        check_amount(amount, "amount", allow_zero=False)
        if destination_kind not in HOLD_DESTINATIONS:
            raise InvalidAmount(
                f"A hold goes to one of: {', '.join(sorted(HOLD_DESTINATIONS))}.", destination=str(destination_kind)
            )
        source, target = (
            AccountKey.player(player_id, currency),
            AccountKey(destination_kind, destination_owner, currency),
        )
        resolved = await self.ledger.accounts(session, (source, target), acting)
        now = self.ledger.now()
        row = await rows.insert_hold(
            session,
            account_id=resolved[source].id,
            destination_account_id=resolved[target].id,
            amount=amount,
            reference=reference,
            now=now,
            expires_at=now + ttl,
        )
        await balance_updates.change(session, {resolved[source].id: AccountChange(held=amount)})
        await self.ledger.emit(
            session,
            HoldCreated(
                hold_id=row.id,
                account=_ref(resolved[source]),
                destination=_ref(resolved[target]),
                currency=currency,
                amount=amount,
                expires_at=row.expires_at,
            ),
            occurred_at=now,
        )
        return Hold(row, resolved[source], resolved[target])

    async def post(
        self, session: AsyncSession, hold_id: int, amount: int | None, acting: str | None
    ) -> tuple[Hold, PostedOperation]:
        """Move `amount` (default: all of it) to the destination and release the rest."""
        hold = await self._pending(session, hold_id, acting)
        posted_amount = amount_to_post(hold_id, hold.row.amount, amount)
        operation = ops.hold_post(
            account=hold.account.key, destination=hold.destination.key, amount=posted_amount, hold_id=hold_id
        )
        posted = await self.ledger.post(session, operation, released={hold.account.key: hold.row.amount})
        now = self.ledger.now()
        row = await self._resolve(
            session, hold_id, HoldStatus.POSTED, posted_amount=posted_amount, operation_id=posted.id
        )
        await self.ledger.emit(
            session,
            HoldPosted(
                hold_id=hold_id,
                operation_id=posted.id,
                amount=posted_amount,
                released=hold.row.amount - posted_amount,
            ),
            occurred_at=now,
        )
        return Hold(row, hold.account, hold.destination), posted

    async def void(self, session: AsyncSession, hold_id: int, acting: str | None) -> Hold:
        hold = await self._pending(session, hold_id, acting)
        now = self.ledger.now()
        await balance_updates.change(session, {hold.account.id: AccountChange(held=-hold.row.amount)})
        row = await self._resolve(session, hold_id, HoldStatus.VOIDED)
        await self.ledger.emit(session, HoldVoided(hold_id=hold_id, released=hold.row.amount), occurred_at=now)
        return Hold(row, hold.account, hold.destination)

    async def get(self, session: AsyncSession, hold_id: int, acting: str | None) -> Hold:
        row = await rows.load_hold(session, hold_id)
        return await self._with_accounts(session, row, acting)

    async def expire_due(self) -> int:
        """Release every pending hold past its expiry; returns how many. One transaction per batch."""
        expired = 0
        while True:
            async with self.units.unit() as uow:
                session = uow.session
                now = self.ledger.now()
                due = await rows.due_for_expiry(session, now, SWEEP_BATCH)
                balance_updates.defer(session)  # the batch's releases in one statement
                for row in due:
                    await balance_updates.change(session, {row.account_id: AccountChange(held=-row.amount)})
                    await rows.resolve_hold(session, row.id, HoldStatus.EXPIRED, now)
                    await self.ledger.emit(session, HoldExpired(hold_id=row.id, released=row.amount), occurred_at=now)
                await balance_updates.settle(session)
            expired += len(due)
            if len(due) < SWEEP_BATCH:
                return expired

    async def sweep_forever(self, interval: float) -> None:
        while True:
            await asyncio.sleep(interval)
            count = await self.expire_due()
            if count:
                log.info("expired holds released", extra={"holds": count})

    async def _pending(self, session: AsyncSession, hold_id: int, acting: str | None) -> Hold:
        row = await rows.load_hold(session, hold_id, lock=True)
        check_can_resolve(hold_id, row.status, row.expires_at, self.ledger.now())
        return await self._with_accounts(session, row, acting)

    async def _resolve(
        self,
        session: AsyncSession,
        hold_id: int,
        status: HoldStatus,
        *,
        posted_amount: int | None = None,
        operation_id: int | None = None,
    ) -> HoldRow:
        row = await rows.resolve_hold(
            session, hold_id, status, self.ledger.now(), posted_amount=posted_amount, operation_id=operation_id
        )
        # The hold was read pending under a row lock (PostgreSQL) or in a write transaction (SQLite).
        assert row is not None, f"hold {hold_id} resolved concurrently"
        return row

    async def _with_accounts(self, session: AsyncSession, row: HoldRow, acting: str | None) -> Hold:
        account = await self.ledger.directory.by_id(session, row.account_id)
        destination = await self.ledger.directory.by_id(session, row.destination_account_id)
        if acting is not None:
            check_acting(acting, (account, destination))
        return Hold(row, account, destination)


def _ref(account: Account) -> AccountRef:
    return AccountRef(kind=str(account.key.kind), owner=account.key.owner)
