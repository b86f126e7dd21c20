"""Posting an operation: resolve its accounts, check who may touch them, append it, move the balances."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from datetime import datetime

from platform_kit.clock import Clock
from platform_kit.events.base import Event
from platform_kit.events.wallet import AccountRef, OperationPosted, Posting
from platform_kit.outbox import Outbox
from sqlalchemy.ext.asyncio import AsyncSession

from wallet.adapters import ledger
from wallet.adapters.accounts import Account, AccountDirectory
from wallet.domain.accounts import AccountKey
from wallet.domain.errors import ForbiddenConcessionaire
from wallet.domain.ledger import account_changes
from wallet.domain.operations import Operation
from wallet.service import balance_updates


class Ledger:
    def __init__(self, outbox: Outbox, clock: Clock) -> None:
        self.outbox = outbox
        self.clock = clock
        self.directory = AccountDirectory()

    def now(self) -> datetime:
        return self.clock.now()

    async def emit(self, session: AsyncSession, event: Event, *, occurred_at: datetime) -> None:
        """Write `event` to the outbox with the transaction's last statement if it defers (balance_updates)."""
        await balance_updates.emit(session, self.outbox, event, occurred_at=occurred_at)

    async def accounts(
        self, session: AsyncSession, keys: Iterable[AccountKey], acting: str | None
    ) -> dict[AccountKey, Account]:
        resolved = await self.directory.resolve(session, keys, self.now())
        if acting is not None:
            check_acting(acting, resolved.values())
        return resolved

    async def post(
        self,
        session: AsyncSession,
        operation: Operation,
        *,
        acting: str | None = None,
        released: Mapping[AccountKey, int] | None = None,
    ) -> ledger.PostedOperation:
        """Append `operation` and apply it to the balances, in the caller's transaction.

        `acting`: the concessionaire on whose behalf the call is made; every account of the operation that
        belongs to a concessionaire (its players' included) must be its own. `released`: held amounts freed
        in the same step (posting a hold)."""
        resolved = await self.accounts(session, operation.accounts, acting)
        return await self.post_resolved(session, operation, resolved, released)

    async def post_resolved(
        self,
        session: AsyncSession,
        operation: Operation,
        resolved: Mapping[AccountKey, Account],
        released: Mapping[AccountKey, int] | None = None,
    ) -> ledger.PostedOperation:
        """`post` of an operation whose accounts the caller resolved (and checked) itself."""
        posted = await ledger.insert_operation(session, operation, resolved, self.now())
        await self._posted(session, posted, resolved, released or {})
        return posted

    async def post_many(
        self,
        session: AsyncSession,
        batch: Sequence[tuple[Operation, Mapping[AccountKey, Account]]],
        ids: Sequence[int],
    ) -> list[ledger.PostedOperation]:
        """`post_resolved` of each operation, their rows written together (`ledger.insert_operations`: `ids` from
        `ledger.reserve_operation_ids`, and their accounts locked by the caller)."""
        posted = await ledger.insert_operations(session, batch, ids, self.now())
        for one, (_, resolved) in zip(posted, batch, strict=True):
            await self._posted(session, one, resolved, {})
        return posted

    async def _posted(
        self,
        session: AsyncSession,
        posted: ledger.PostedOperation,
        resolved: Mapping[AccountKey, Account],
        released: Mapping[AccountKey, int],
    ) -> None:
        """Its event, and its balance changes."""
        await self.emit(session, operation_posted(posted), occurred_at=posted.created_at)
        # Balances last (or at the end of the transaction, see balance_updates): the busiest rows are locked for
        # the shortest time before the commit.
        changes = account_changes(posted.operation.legs, released)
        await balance_updates.change(session, {resolved[key].id: change for key, change in changes.items()})


def check_acting(acting: str, accounts: Iterable[Account]) -> None:
    """A concessionaire sees and moves only its own players' money and its own accounts."""
    for account in accounts:
        if account.concessionaire_id is not None and account.concessionaire_id != acting:
            raise ForbiddenConcessionaire(
                f"Account {account.key} belongs to another concessionaire.", account=str(account.key)
            )


def operation_posted(posted: ledger.PostedOperation) -> OperationPosted:
    operation = posted.operation
    return OperationPosted(
        operation_id=posted.id,
        kind=str(operation.kind),
        currency=operation.currency,
        tournament_id=operation.tournament_id,
        draw_id=operation.draw_id,
        player_id=operation.player_id,
        concessionaire_id=operation.concessionaire_id,
        reference=operation.reference,
        tax_base=None if operation.tax_base is None else operation.tax_base.amount,
        reverses_operation_id=operation.reverses,
        postings=[
            Posting(
                debit=AccountRef(kind=str(t.debit.key.kind), owner=t.debit.key.owner),
                credit=AccountRef(kind=str(t.credit.key.kind), owner=t.credit.key.owner),
                amount=t.amount,
                purpose=t.purpose,
            )
            for t in posted.transfers
        ],
        posted_at=posted.created_at,
    )
