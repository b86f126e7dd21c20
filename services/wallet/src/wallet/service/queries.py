"""The read side: balances, statements, operations, a tournament's escrow and tax base, a draw's pools."""

from __future__ import annotations

from dataclasses import dataclass

from sqlalchemy.ext.asyncio import AsyncSession

from wallet.adapters import ledger as ledger_rows
from wallet.adapters import statements
from wallet.adapters.accounts import AccountState, account_states
from wallet.adapters.ledger import PostedOperation
from wallet.adapters.statements import StatementFilter, StatementLine
from wallet.domain.accounts import CONCESSIONAIRE_KINDS, PLAYER_KINDS, AccountKind
from wallet.domain.currencies import currency as known_currency
from wallet.domain.errors import UnknownAccount
from wallet.service.ledger import Ledger, check_acting

MAX_PAGE = 500


@dataclass(frozen=True)
class StatementPage:
    lines: list[StatementLine]
    next_cursor: str | None


@dataclass(frozen=True)
class TaxBaseLine:
    concessionaire_id: str
    currency: str
    amount: int
    entries: int


class Queries:
    def __init__(self, ledger: Ledger) -> None:
        self.ledger = ledger

    async def player_accounts(
        self, session: AsyncSession, player_id: str, acting: str | None
    ) -> tuple[str, list[AccountState]]:
        concessionaire = await self.ledger.directory.concessionaire_of(session, player_id)
        # Cash and bonus alike (told apart by their kind): the player sees all its money.
        states = await account_states(session, kinds=PLAYER_KINDS, owner=player_id)
        if acting is not None:
            check_acting(acting, [state.account for state in states])
        return concessionaire, states

    async def account(self, session: AsyncSession, account_id: int) -> AccountState:
        found = await account_states(session, account_id=account_id)
        if not found:
            raise UnknownAccount(f"There is no account {account_id}.", account_id=account_id)
        return found[0]

    async def concessionaire_accounts(
        self, session: AsyncSession, concessionaire_id: str, currency: str | None = None
    ) -> list[AccountState]:
        return await account_states(session, kinds=CONCESSIONAIRE_KINDS, owner=concessionaire_id, currency=currency)

    async def player_statement(
        self,
        session: AsyncSession,
        player_id: str,
        *,
        currency: str | None,
        filters: StatementFilter,
        cursor: tuple[int, str] | None,
        limit: int,
        acting: str | None,
    ) -> StatementPage:
        _, states = await self.player_accounts(session, player_id, acting)
        return await self._page(session, _in_currency(states, currency), filters, cursor, limit)

    async def concessionaire_statement(
        self,
        session: AsyncSession,
        concessionaire_id: str,
        *,
        account_kind: AccountKind | None,
        currency: str | None,
        filters: StatementFilter,
        cursor: tuple[int, str] | None,
        limit: int,
    ) -> StatementPage:
        states = await self.concessionaire_accounts(session, concessionaire_id, currency)
        if account_kind is not None:
            states = [state for state in states if state.account.key.kind is account_kind]
        return await self._page(session, states, filters, cursor, limit)

    async def account_statement(
        self,
        session: AsyncSession,
        account_id: int,
        *,
        filters: StatementFilter,
        cursor: tuple[int, str] | None,
        limit: int,
    ) -> StatementPage:
        return await self._page(session, [await self.account(session, account_id)], filters, cursor, limit)

    async def operation(self, session: AsyncSession, operation_id: int, acting: str | None) -> PostedOperation:
        posted = await ledger_rows.load_operation(session, operation_id)
        if acting is not None:
            check_acting(acting, [a for t in posted.transfers for a in (t.debit, t.credit)])
        return posted

    async def tournament(
        self, session: AsyncSession, tournament_id: str
    ) -> tuple[AccountState | None, list[TaxBaseLine]]:
        escrows = await account_states(session, kinds=[AccountKind.TOURNAMENT_ESCROW], owner=tournament_id)
        base = [TaxBaseLine(*line) for line in await ledger_rows.tax_base_of(session, tournament_id)]
        return (escrows[0] if escrows else None), base

    async def draw_pools(self, session: AsyncSession, draw_id: str) -> list[AccountState]:
        return await account_states(session, kinds=[AccountKind.DRAW_POOL], owner=draw_id)

    async def _page(
        self,
        session: AsyncSession,
        states: list[AccountState],
        filters: StatementFilter,
        cursor: tuple[int, str] | None,
        limit: int,
    ) -> StatementPage:
        limit = max(1, min(limit, MAX_PAGE))
        found = await statements.lines(session, [s.account for s in states], filters, after=cursor, limit=limit + 1)
        more = len(found) > limit
        page = found[:limit]
        return StatementPage(page, page[-1].cursor if more else None)


def _in_currency(states: list[AccountState], currency: str | None) -> list[AccountState]:
    if currency is None:
        return states
    known_currency(currency)
    return [state for state in states if state.account.key.currency == currency]
