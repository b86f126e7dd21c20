"""Finding and opening accounts, and changing their running balances under the no-overdraft rule."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import and_, or_, select, update
from sqlalchemy.ext.asyncio import AsyncSession

from wallet.adapters.orm import accounts, players
from wallet.adapters.sql import insert_ignoring_conflicts
from wallet.domain.accounts import AccountKey, AccountKind
from wallet.domain.errors import CurrencyMismatch, ForbiddenConcessionaire, InsufficientFunds, UnknownAccount
from wallet.domain.ledger import lock_order


@dataclass(frozen=True)
class Account:
    id: int
    key: AccountKey
    concessionaire_id: str | None

    @property
    def may_go_negative(self) -> bool:
        return self.key.kind.may_go_negative


@dataclass(frozen=True)
class AccountState:
    account: Account
    balance: int
    held: int

    @property
    def available(self) -> int:
        return self.balance - self.held


def account_from_row(row: Any) -> Account:
    """From any row with the columns id, kind, owner, currency and concessionaire_id."""
    return Account(row.id, AccountKey(AccountKind(row.kind), row.owner, row.currency), row.concessionaire_id)


class AccountDirectory:
    """Accounts by key, and players by id, with an in-process cache of facts that never change once committed
    (an account's id and owner, a player's concessionaire). Rows this transaction inserted itself are never
    cached: the transaction may still roll back."""

    def __init__(self) -> None:
        self._accounts: dict[AccountKey, Account] = {}
        self._players: dict[str, str] = {}

    # -- players ----------------------------------------------------------------------------------------------
    async def concessionaire_of(self, session: AsyncSession, player_id: str) -> str:
        if player_id in self._players:
            return self._players[player_id]
        concessionaire = await session.scalar(
            select(players.c.concessionaire_id).where(players.c.player_id == player_id)
        )
        if concessionaire is None:
            raise UnknownAccount(f"Player {player_id!r} has no account in the wallet.", player_id=player_id)
        self._players[player_id] = concessionaire
        return str(concessionaire)

    async def register_player(
        self, session: AsyncSession, player_id: str, concessionaire_id: str, now: datetime
    ) -> None:
        """A player belongs to one concessionaire for good: a second one is refused."""
        await session.execute(
            insert_ignoring_conflicts(session, players).values(
                player_id=player_id, concessionaire_id=concessionaire_id, registered_at=now
            )
        )
        owner = await session.scalar(select(players.c.concessionaire_id).where(players.c.player_id == player_id))
        if owner != concessionaire_id:
            raise ForbiddenConcessionaire(
                f"Player {player_id!r} belongs to another concessionaire.", player_id=player_id
            )

    # -- accounts ---------------------------------------------------------------------------------------------
    async def resolve(
        self, session: AsyncSession, keys: Iterable[AccountKey], now: datetime
    ) -> dict[AccountKey, Account]:
        """The accounts of `keys`; system accounts are opened on first use, players' must have been opened."""
        wanted = set(keys)
        found = {key: self._accounts[key] for key in wanted if key in self._accounts}
        missing = wanted - found.keys()
        if missing:
            for account in await self._select(session, missing):
                found[account.key] = self._accounts[account.key] = account
            missing -= found.keys()
        for key in sorted(missing):
            if key.kind is AccountKind.PLAYER:
                raise UnknownAccount(
                    f"Player {key.owner!r} has no {key.currency} account.", player_id=key.owner, currency=key.currency
                )
            found[key] = await self.open(session, key, key.concessionaire_id, now)
        return found

    async def find(self, session: AsyncSession, key: AccountKey) -> Account | None:
        if key in self._accounts:
            return self._accounts[key]
        found = await self._select(session, {key})
        if not found:
            return None
        self._accounts[key] = found[0]
        return found[0]

    async def open(
        self, session: AsyncSession, key: AccountKey, concessionaire_id: str | None, now: datetime
    ) -> Account:
        inserted = (
            await session.execute(
                insert_ignoring_conflicts(session, accounts)
                .values(
                    kind=str(key.kind),
                    owner=key.owner,
                    currency=key.currency,
                    concessionaire_id=concessionaire_id,
                    may_go_negative=key.kind.may_go_negative,
                    balance=0,
                    held=0,
                    opened_at=now,
                )
                .returning(accounts.c.id)
            )
        ).first()
        if inserted is not None:
            return Account(inserted.id, key, concessionaire_id)
        existing = await self._select(session, {key})
        if existing:
            self._accounts[key] = existing[0]
            return existing[0]
        # The insert conflicted on something else than the key: the tournament has an escrow in another currency.
        assert key.kind.one_currency_per_owner, key
        other = await session.scalar(
            select(accounts.c.currency).where(accounts.c.kind == str(key.kind), accounts.c.owner == key.owner)
        )
        raise CurrencyMismatch(
            f"Tournament {key.owner!r} is played in {other}, not {key.currency}.",
            tournament_id=key.owner,
            currency=key.currency,
            tournament_currency=other,
        )

    async def by_id(self, session: AsyncSession, account_id: int) -> Account:
        row = (await session.execute(select(accounts).where(accounts.c.id == account_id))).first()
        if row is None:
            raise UnknownAccount(f"There is no account {account_id}.", account_id=account_id)
        return account_from_row(row)

    async def _select(self, session: AsyncSession, keys: set[AccountKey]) -> list[Account]:
        condition = or_(
            *(
                and_(accounts.c.kind == str(k.kind), accounts.c.owner == k.owner, accounts.c.currency == k.currency)
                for k in sorted(keys)
            )
        )
        rows = await session.execute(
            select(
                accounts.c.id, accounts.c.kind, accounts.c.owner, accounts.c.currency, accounts.c.concessionaire_id
            ).where(condition)
        )
        return [account_from_row(row) for row in rows]


async def account_states(
    session: AsyncSession,
    *,
    kinds: Iterable[AccountKind] | None = None,
    owner: str | None = None,
    currency: str | None = None,
    account_id: int | None = None,
) -> list[AccountState]:
    query = select(accounts).order_by(accounts.c.id)
    if kinds is not None:
        query = query.where(accounts.c.kind.in_([str(kind) for kind in kinds]))
    if owner is not None:
        query = query.where(accounts.c.owner == owner)
    if currency is not None:
        query = query.where(accounts.c.currency == currency)
    if account_id is not None:
        query = query.where(accounts.c.id == account_id)
    return [AccountState(account_from_row(row), row.balance, row.held) for row in await session.execute(query)]


async def apply_changes(
    session: AsyncSession,
    changes: Mapping[AccountKey, int],
    resolved: Mapping[AccountKey, Account],
    *,
    released: Mapping[AccountKey, int] | None = None,
) -> None:
    """Add each net change to its account's balance (and take `released` off its held amount), one row at a
    time in the global lock order. An account that may not go negative is only debited while
    balance − held covers it: the check and the change are one UPDATE, so two concurrent transactions can
    never both spend the same money (the second waits for the first's row lock, then re-checks)."""
    released = released or {}
    touched = sorted(
        set(changes) | set(released), key=lambda k: lock_order(resolved[k].may_go_negative, resolved[k].id)
    )
    for key in touched:
        account = resolved[key]
        change, release = changes.get(key, 0), released.get(key, 0)
        statement = (
            update(accounts)
            .where(accounts.c.id == account.id)
            .values(balance=accounts.c.balance + change, held=accounts.c.held - release)
        )
        if change < 0 and not account.may_go_negative:
            statement = statement.where(accounts.c.balance - accounts.c.held + release + change >= 0)
        if (await session.execute(statement)).rowcount != 1:  # type: ignore[attr-defined]
            raise await _insufficient(session, account, -change - release)


async def reserve(session: AsyncSession, account: Account, amount: int) -> None:
    """Hold `amount` on `account`, refused if its available balance does not cover it."""
    statement = update(accounts).where(accounts.c.id == account.id).values(held=accounts.c.held + amount)
    if not account.may_go_negative:
        statement = statement.where(accounts.c.balance - accounts.c.held >= amount)
    if (await session.execute(statement)).rowcount != 1:  # type: ignore[attr-defined]
        raise await _insufficient(session, account, amount)


async def release(session: AsyncSession, account_id: int, amount: int) -> None:
    await session.execute(update(accounts).where(accounts.c.id == account_id).values(held=accounts.c.held - amount))


async def _insufficient(session: AsyncSession, account: Account, needed: int) -> InsufficientFunds:
    row = (await session.execute(select(accounts.c.balance, accounts.c.held).where(accounts.c.id == account.id))).one()
    return InsufficientFunds(
        f"Account {account.key} has {row.balance - row.held} available, {needed} needed.",
        account=str(account.key),
        available=row.balance - row.held,
        needed=needed,
    )
