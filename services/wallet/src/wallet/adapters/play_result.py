"""A player's net result from play over a span (the reality check's figure, docs/player-protection.md)."""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import func, select
from sqlalchemy.ext.asyncio import AsyncSession

from wallet.adapters.orm import accounts, operations, transfers
from wallet.adapters.sql import as_int
from wallet.domain.accounts import AccountKind
from wallet.domain.operations import OperationKind

# Money in and out at the cashier is not play: it neither wins nor loses.
_NOT_PLAY = (str(OperationKind.DEPOSIT), str(OperationKind.WITHDRAWAL))


async def net_since(session: AsyncSession, player_id: str, since: datetime) -> dict[str, int]:
    """Per currency: what play credited to the player's own (cash) account since `since`, minus what it took.
    Winnings and refunds count positive, buy-ins and stakes negative."""
    own = select(accounts.c.id).where(accounts.c.kind == AccountKind.PLAYER.value, accounts.c.owner == player_id)
    net: dict[str, int] = {}
    for column, sign in ((transfers.c.credit_account_id, 1), (transfers.c.debit_account_id, -1)):
        rows = await session.execute(
            select(operations.c.currency, func.sum(transfers.c.amount))
            .select_from(transfers.join(operations, transfers.c.operation_id == operations.c.id))
            .where(column.in_(own), operations.c.kind.not_in(_NOT_PLAY), transfers.c.created_at >= since)
            .group_by(operations.c.currency)
        )
        for currency, amount in rows:
            net[currency] = net.get(currency, 0) + sign * as_int(amount)
    return net
