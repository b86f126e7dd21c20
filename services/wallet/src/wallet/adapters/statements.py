"""Statements: the transfers touching a set of accounts, newest first, one line per account side, paged by a
keyset cursor (stable while new transfers arrive)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from platform_kit.instants import as_utc
from sqlalchemy import Select, and_, literal, or_, select, union_all
from sqlalchemy.ext.asyncio import AsyncSession
from sqlalchemy.orm import aliased

from wallet.adapters.accounts import Account
from wallet.adapters.orm import accounts, operations, transfers
from wallet.domain.accounts import AccountKey, AccountKind

DEBIT, CREDIT = "d", "c"  # in a page a transfer's debit line comes before its credit line


@dataclass(frozen=True)
class StatementFilter:
    """Which lines a statement lists; a time bound given without an offset is UTC, as the stored instants."""

    operation_kind: str | None = None
    since: datetime | None = None
    until: datetime | None = None


@dataclass(frozen=True)
class StatementLine:
    transfer_id: int
    side: str
    account: AccountKey
    counterparty: AccountKey
    amount: int  # signed: positive credits the account
    purpose: str
    operation_id: int
    operation_kind: str
    tournament_id: str | None
    draw_id: str | None
    reference: str | None
    created_at: datetime

    @property
    def cursor(self) -> str:
        return f"{self.transfer_id}{self.side}"


def parse_cursor(cursor: str) -> tuple[int, str]:
    """`"123c"` → (123, "c"); raises ValueError for anything else."""
    number, side = cursor[:-1], cursor[-1:]
    if side not in (DEBIT, CREDIT) or not number.isdigit():
        raise ValueError(cursor)
    return int(number), side


async def lines(
    session: AsyncSession,
    mine: Sequence[Account],
    filters: StatementFilter,
    *,
    after: tuple[int, str] | None,
    limit: int,
) -> list[StatementLine]:
    if not mine:
        return []
    by_id = {account.id: account for account in mine}
    branches = [
        _branch(DEBIT, "debit_account_id", "credit_account_id", -1, list(by_id), filters, after),
        _branch(CREDIT, "credit_account_id", "debit_account_id", 1, list(by_id), filters, after),
    ]
    both = union_all(*branches).subquery()
    rows = await session.execute(select(both).order_by(both.c.transfer_id.desc(), both.c.side.desc()).limit(limit))
    return [
        StatementLine(
            transfer_id=row.transfer_id,
            side=row.side,
            account=by_id[row.account_id].key,
            counterparty=AccountKey(AccountKind(row.other_kind), row.other_owner, row.other_currency),
            amount=row.amount,
            purpose=row.purpose,
            operation_id=row.operation_id,
            operation_kind=row.operation_kind,
            tournament_id=row.tournament_id,
            draw_id=row.draw_id,
            reference=row.reference,
            created_at=row.created_at,
        )
        for row in rows
    ]


def _branch(
    side: str,
    mine_column: str,
    other_column: str,
    sign: int,
    account_ids: list[int],
    filters: StatementFilter,
    after: tuple[int, str] | None,
) -> Select[Any]:
    """The lines of one side: transfers debiting (or crediting) one of `account_ids`, with the other side."""
    other = aliased(accounts)
    mine_col, other_col = transfers.c[mine_column], transfers.c[other_column]
    query = (
        select(
            transfers.c.id.label("transfer_id"),
            literal(side).label("side"),
            mine_col.label("account_id"),
            other.c.kind.label("other_kind"),
            other.c.owner.label("other_owner"),
            other.c.currency.label("other_currency"),
            (transfers.c.amount * sign).label("amount"),
            transfers.c.purpose,
            transfers.c.created_at,
            operations.c.id.label("operation_id"),
            operations.c.kind.label("operation_kind"),
            operations.c.tournament_id,
            operations.c.draw_id,
            operations.c.reference,
        )
        .join(operations, operations.c.id == transfers.c.operation_id)
        .join(other, other.c.id == other_col)
        .where(mine_col.in_(account_ids))
    )
    if filters.operation_kind is not None:
        query = query.where(operations.c.kind == filters.operation_kind)
    if filters.since is not None:
        query = query.where(transfers.c.created_at >= as_utc(filters.since))
    if filters.until is not None:
        query = query.where(transfers.c.created_at < as_utc(filters.until))
    if after is not None:
        # keyset: lines strictly after (transfer id, side) in the order (id desc, side desc)
        after_id, after_side = after
        same_transfer_later_side = and_(transfers.c.id == after_id, literal(side < after_side))
        query = query.where(or_(transfers.c.id < after_id, same_transfer_later_side))
    return query
