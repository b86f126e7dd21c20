"""The two aggregate queries reconciliation runs; each is one statement, so it reads one consistent snapshot."""

from __future__ import annotations

from sqlalchemy import func, or_, select
from sqlalchemy.ext.asyncio import AsyncSession

from wallet.adapters.orm import accounts, holds, transfers
from wallet.adapters.sql import as_int
from wallet.domain.accounts import AccountKey, AccountKind
from wallet.domain.holds import HoldStatus
from wallet.domain.reconciliation import AccountDrift


async def sums_per_currency(session: AsyncSession) -> list[tuple[str, int, int]]:
    rows = await session.execute(
        select(accounts.c.currency, func.count(), func.sum(accounts.c.balance)).group_by(accounts.c.currency)
    )
    return [(currency, int(count), as_int(total)) for currency, count, total in rows]


async def accounts_per_currency(session: AsyncSession, concessionaire_id: str) -> dict[str, int]:
    """How many accounts a concessionaire has per currency: its own and its players'."""
    rows = await session.execute(
        select(accounts.c.currency, func.count())
        .where(accounts.c.concessionaire_id == concessionaire_id)
        .group_by(accounts.c.currency)
    )
    return {currency: int(count) for currency, count in rows}


async def drifted_accounts(
    session: AsyncSession, concessionaire_id: str | None = None
) -> list[tuple[str, AccountDrift]]:
    """Accounts whose running balance or held amount differs from what their transfers and holds add up to;
    with `concessionaire_id`, only that concessionaire's own accounts and its players'."""
    credits = (
        select(transfers.c.credit_account_id.label("id"), func.sum(transfers.c.amount).label("total"))
        .group_by(transfers.c.credit_account_id)
        .subquery()
    )
    debits = (
        select(transfers.c.debit_account_id.label("id"), func.sum(transfers.c.amount).label("total"))
        .group_by(transfers.c.debit_account_id)
        .subquery()
    )
    pending = (
        select(holds.c.account_id.label("id"), func.sum(holds.c.amount).label("total"))
        .where(holds.c.status == str(HoldStatus.PENDING))
        .group_by(holds.c.account_id)
        .subquery()
    )
    derived = func.coalesce(credits.c.total, 0) - func.coalesce(debits.c.total, 0)
    held = func.coalesce(pending.c.total, 0)
    query = (
        select(accounts, derived.label("derived"), held.label("derived_held"))
        .outerjoin(credits, credits.c.id == accounts.c.id)
        .outerjoin(debits, debits.c.id == accounts.c.id)
        .outerjoin(pending, pending.c.id == accounts.c.id)
        .where(or_(accounts.c.balance != derived, accounts.c.held != held))
        .order_by(accounts.c.id)
    )
    if concessionaire_id is not None:
        query = query.where(accounts.c.concessionaire_id == concessionaire_id)
    rows = await session.execute(query)
    return [
        (
            row.currency,
            AccountDrift(
                str(AccountKey(AccountKind(row.kind), row.owner, row.currency)),
                row.balance,
                as_int(row.derived),
                row.held,
                as_int(row.derived_held),
            ),
        )
        for row in rows
    ]
