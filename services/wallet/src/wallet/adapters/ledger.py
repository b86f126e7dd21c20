"""Writing operations and their transfers (append-only), and reading them back."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import BigInteger, Row, Select, String, any_, bindparam, case, func, select, true
from sqlalchemy.dialects.postgresql import ARRAY
from sqlalchemy.ext.asyncio import AsyncSession
from sqlalchemy.orm import aliased

from wallet.adapters.accounts import LOCK_IN_ORDER, Account, locked_in_order
from wallet.adapters.orm import accounts, operations, transfers
from wallet.adapters.sql import as_int, for_update, writes_in_with
from wallet.domain.accounts import AccountKey, AccountKind
from wallet.domain.errors import UnknownOperation
from wallet.domain.operations import Leg, Operation, OperationKind, TaxBase


@dataclass(frozen=True)
class PostedTransfer:
    debit: Account
    credit: Account
    amount: int
    purpose: str


@dataclass(frozen=True)
class PostedOperation:
    id: int
    operation: Operation
    transfers: tuple[PostedTransfer, ...]
    created_at: datetime


async def insert_operation(
    session: AsyncSession, operation: Operation, resolved: Mapping[AccountKey, Account], now: datetime
) -> PostedOperation:
    """The operation row and its transfers (in leg order): one statement on PostgreSQL, two on SQLite. On
    PostgreSQL the same statement locks the operation's accounts in order, as `accounts.apply_changes` would."""
    row = _operation_row(operation, now)
    posted = tuple(
        PostedTransfer(resolved[leg.debit], resolved[leg.credit], leg.amount, leg.purpose) for leg in operation.legs
    )
    if writes_in_with(session):
        # The balance changes come at the end of the transaction; their accounts are locked here, in order.
        lock = sorted({account.id for t in posted for account in (t.debit, t.credit)})
        legs = {
            "debits": [t.debit.id for t in posted],
            "credits": [t.credit.id for t in posted],
            "amounts": [t.amount for t in posted],
            "purposes": [t.purpose for t in posted],
            "lock": lock,
        }
        operation_id = (await session.execute(_INSERT_OPERATION_WITH_TRANSFERS, row | legs)).scalar_one()
        locked_in_order(session, lock)
    else:
        operation_id = (await session.execute(_INSERT_OPERATION, row)).scalar_one()
        rows = [_transfer_row(operation_id, t, now) for t in posted]
        await session.execute(_INSERT_TRANSFERS, rows)
    return PostedOperation(operation_id, operation, posted, now)


async def reserve_operation_ids(session: AsyncSession, count: int) -> list[int]:
    """`count` ids for operations to come, in the batch's order. PostgreSQL: drawn from the table's sequence (an
    id drawn and not used is a gap, as a rolled-back insert leaves). SQLite: the ids after the highest, which are
    those SQLite itself would give (an INTEGER PRIMARY KEY without AUTOINCREMENT); no other writer can take them
    first, as every writing transaction holds the database's write lock from its BEGIN IMMEDIATE (kit `db`), and
    a rollback takes the rows and the ids back together."""
    if count == 0:
        return []
    if writes_in_with(session):
        return sorted((await session.execute(_NEXT_OPERATION_IDS, {"count": count})).scalars())
    highest = (await session.execute(_HIGHEST_OPERATION_ID)).scalar_one() or 0
    return list(range(highest + 1, highest + 1 + count))


async def insert_operations(
    session: AsyncSession,
    batch: Sequence[tuple[Operation, Mapping[AccountKey, Account]]],
    ids: Sequence[int],
    now: datetime,
) -> list[PostedOperation]:
    """Many operations and their transfers (in leg order), given ids from `reserve_operation_ids`: two
    statements whatever their number (each one's rows sent at once). Their accounts are not locked here: the
    caller holds their locks already."""
    if not batch:
        return []
    posted = [
        PostedOperation(
            operation_id,
            operation,
            tuple(
                PostedTransfer(resolved[leg.debit], resolved[leg.credit], leg.amount, leg.purpose)
                for leg in operation.legs
            ),
            now,
        )
        for operation_id, (operation, resolved) in zip(ids, batch, strict=False)
    ]
    await session.execute(_INSERT_OPERATION_WITH_ID, [{"id": p.id} | _operation_row(p.operation, now) for p in posted])
    await session.execute(_INSERT_TRANSFERS, [_transfer_row(p.id, t, now) for p in posted for t in p.transfers])
    return posted


def _operation_row(operation: Operation, now: datetime) -> dict[str, Any]:
    base = operation.tax_base
    return {
        "kind": str(operation.kind),
        "currency": operation.currency,
        "tournament_id": operation.tournament_id,
        "draw_id": operation.draw_id,
        "player_id": operation.player_id,
        "concessionaire_id": operation.concessionaire_id,
        "reference": operation.reference,
        "tax_base": None if base is None else base.amount,
        "reverses_operation_id": operation.reverses,
        "created_at": now,
    }


def _transfer_row(operation_id: int, transfer: PostedTransfer, now: datetime) -> dict[str, Any]:
    return {
        "operation_id": operation_id,
        "debit_account_id": transfer.debit.id,
        "credit_account_id": transfer.credit.id,
        "amount": transfer.amount,
        "purpose": transfer.purpose,
        "created_at": now,
    }


def _operation_with_transfers() -> Select[Any]:
    """PostgreSQL: `WITH operation AS (INSERT … RETURNING id), legs AS (INSERT INTO transfers SELECT
    operation.id, … FROM unnest(the legs' columns as arrays) …), locked AS (SELECT id FROM accounts … ORDER BY id
    FOR NO KEY UPDATE) SELECT id FROM operation, (SELECT count(*) FROM locked)` — one round trip. The locks are
    those of `accounts.apply_changes` (see there why that order and that lock), taken one statement earlier: the
    UPDATE that comes last then finds them held. A SELECT in WITH runs only when read, hence the count."""
    operation = (
        operations.insert()
        .values({name: bindparam(name, type_=operations.c[name].type) for name in _OPERATION_COLUMNS})
        .returning(operations.c.id)
        .cte("operation")
    )
    leg = (
        func.unnest(
            bindparam("debits", type_=ARRAY(BigInteger)),
            bindparam("credits", type_=ARRAY(BigInteger)),
            bindparam("amounts", type_=ARRAY(BigInteger)),
            bindparam("purposes", type_=ARRAY(String)),
        )
        .table_valued("debit", "credit", "amount", "purpose", with_ordinality="number")
        .render_derived("leg")
    )
    legs = transfers.insert().from_select(
        ["operation_id", "debit_account_id", "credit_account_id", "amount", "purpose", "created_at"],
        select(
            operation.c.id,
            leg.c.debit,
            leg.c.credit,
            leg.c.amount,
            leg.c.purpose,
            bindparam("created_at", type_=transfers.c.created_at.type),
        )
        .select_from(operation.join(leg, true()))
        .order_by(leg.c.number),  # transfer ids in leg order
    )
    locked = LOCK_IN_ORDER.where(accounts.c.id == any_(bindparam("lock", type_=ARRAY(BigInteger)))).cte("locked")
    count = select(func.count()).select_from(locked).scalar_subquery()
    return select(operation.c.id, count).add_cte(legs.cte("legs"))


# Built once with bound parameters: SQLAlchemy then finds them compiled in its cache at once.
_OPERATION_COLUMNS = [column.name for column in operations.c if column.name != "id"]
_INSERT_OPERATION_WITH_TRANSFERS = _operation_with_transfers()
_INSERT_OPERATION = operations.insert().returning(operations.c.id)
_INSERT_OPERATION_WITH_ID = operations.insert()
_NEXT_OPERATION_IDS = select(func.nextval(func.pg_get_serial_sequence("operations", "id"))).select_from(
    func.generate_series(1, bindparam("count"))
)
_HIGHEST_OPERATION_ID = select(func.max(operations.c.id))
_INSERT_TRANSFERS = transfers.insert()


async def load_operation(session: AsyncSession, operation_id: int, *, lock: bool = False) -> PostedOperation:
    """With `lock` the operation row stays locked to the end of the transaction (reversing it)."""
    query = select(operations).where(operations.c.id == operation_id)
    if lock and for_update(session):
        query = query.with_for_update()
    row = (await session.execute(query)).first()
    if row is None:
        raise UnknownOperation(f"There is no operation {operation_id}.", operation_id=operation_id)
    debit, credit = aliased(accounts), aliased(accounts)
    legs = (
        await session.execute(
            select(
                transfers.c.amount,
                transfers.c.purpose,
                *_account_columns(debit, "d_"),
                *_account_columns(credit, "c_"),
            )
            .join(debit, debit.c.id == transfers.c.debit_account_id)
            .join(credit, credit.c.id == transfers.c.credit_account_id)
            .where(transfers.c.operation_id == operation_id)
            .order_by(transfers.c.id)
        )
    ).all()
    posted = tuple(
        PostedTransfer(_account_from(leg, "d_"), _account_from(leg, "c_"), leg.amount, leg.purpose) for leg in legs
    )
    tax_base = None
    if row.tax_base is not None and row.tournament_id is not None and row.concessionaire_id is not None:
        tax_base = TaxBase(row.tournament_id, row.concessionaire_id, row.tax_base)
    operation = Operation(
        OperationKind(row.kind),
        row.currency,
        tuple(Leg(t.debit.key, t.credit.key, t.amount, t.purpose) for t in posted),
        tournament_id=row.tournament_id,
        draw_id=row.draw_id,
        player_id=row.player_id,
        concessionaire_id=row.concessionaire_id,
        reference=row.reference,
        tax_base=tax_base,
        reverses=row.reverses_operation_id,
    )
    return PostedOperation(row.id, operation, posted, row.created_at)


async def reversed_by(session: AsyncSession, operation_id: int) -> int | None:
    found = await session.scalar(select(operations.c.id).where(operations.c.reverses_operation_id == operation_id))
    return None if found is None else int(found)


async def tax_base_of(session: AsyncSession, tournament_id: str) -> list[tuple[str, str, int, int]]:
    """P-8.7: (concessionaire, currency, base, entries) of one tournament."""
    rows = await session.execute(
        select(
            operations.c.concessionaire_id,
            operations.c.currency,
            func.sum(operations.c.tax_base),
            # a reversed entry is taken back from the count as from the base
            func.sum(case((operations.c.tax_base < 0, -1), else_=1)),
        )
        .where(operations.c.tournament_id == tournament_id, operations.c.tax_base.is_not(None))
        .group_by(operations.c.concessionaire_id, operations.c.currency)
        .order_by(operations.c.concessionaire_id, operations.c.currency)
    )
    return [(c, cur, as_int(total), as_int(count)) for c, cur, total, count in rows]


def _account_columns(table: Any, prefix: str) -> list[Any]:
    return [
        table.c.id.label(prefix + "id"),
        table.c.kind.label(prefix + "kind"),
        table.c.owner.label(prefix + "owner"),
        table.c.currency.label(prefix + "currency"),
        table.c.concessionaire_id.label(prefix + "concessionaire_id"),
    ]


def _account_from(row: Row[Any], prefix: str) -> Account:
    values = row._mapping
    key = AccountKey(AccountKind(values[prefix + "kind"]), values[prefix + "owner"], values[prefix + "currency"])
    return Account(values[prefix + "id"], key, values[prefix + "concessionaire_id"])
