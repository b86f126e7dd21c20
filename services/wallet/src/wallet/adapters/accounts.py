"""Finding and opening accounts, and changing their running totals under the no-overdraft rule."""

from __future__ import annotations

import functools
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import BigInteger, Case, Update, and_, bindparam, case, or_, select, update
from sqlalchemy.ext.asyncio import AsyncSession

from wallet.adapters.orm import accounts, players
from wallet.adapters.riders import NO_RIDERS, Riders
from wallet.adapters.sql import for_update, insert_ignoring_conflicts
from wallet.domain.accounts import AccountKey, AccountKind
from wallet.domain.errors import CurrencyMismatch, ForbiddenConcessionaire, InsufficientFunds, UnknownAccount
from wallet.domain.ledger import AccountChange


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


#: `session.info` key: the players and account keys whose rows the session's transaction inserted.
_INSERTED_HERE = "wallet.directory_rows_inserted"
# Built once with a bound parameter: SQLAlchemy finds it compiled at once (a player's first entry of a process).
_CONCESSIONAIRE_OF = select(players.c.concessionaire_id).where(players.c.player_id == bindparam("player_id"))
_CONCESSIONAIRES_OF = select(players.c.player_id, players.c.concessionaire_id).where(
    players.c.player_id.in_(bindparam("players", expanding=True))
)


def unknown_player(player_id: str) -> UnknownAccount:
    return UnknownAccount(f"Player {player_id!r} has no account in the wallet.", player_id=player_id)


def _inserted_here(session: AsyncSession) -> set[str | AccountKey]:
    inserted: set[str | AccountKey] = session.info.setdefault(_INSERTED_HERE, set())
    return inserted


class AccountDirectory:
    """Accounts by key, and players by id, with an in-process cache of facts that never change once committed
    (an account's id and owner, a player's concessionaire). Rows this transaction inserted itself are never
    cached, even once read back: the transaction may still roll back (an entry that opens the player's account
    and is then refused, service/money.py)."""

    def __init__(self) -> None:
        self._accounts: dict[AccountKey, Account] = {}
        self._players: dict[str, str] = {}

    # -- players ----------------------------------------------------------------------------------------------
    async def concessionaire_of(self, session: AsyncSession, player_id: str) -> str:
        if player_id in self._players:
            return self._players[player_id]
        concessionaire = await session.scalar(_CONCESSIONAIRE_OF, {"player_id": player_id})
        if concessionaire is None:
            raise unknown_player(player_id)
        if player_id not in _inserted_here(session):
            self._players[player_id] = concessionaire
        return str(concessionaire)

    async def concessionaires_of(self, session: AsyncSession, player_ids: Iterable[str]) -> dict[str, str]:
        """`concessionaire_of` of each player, with one SELECT for those not known yet; an unknown player is
        missing from the answer."""
        wanted = set(player_ids)
        found = {player: self._players[player] for player in wanted if player in self._players}
        missing = sorted(wanted - found.keys())
        if missing:
            inserted = _inserted_here(session)
            for player, concessionaire in await session.execute(_CONCESSIONAIRES_OF, {"players": missing}):
                found[player] = concessionaire
                if player not in inserted:
                    self._players[player] = concessionaire
        return found

    async def register_player(
        self, session: AsyncSession, player_id: str, concessionaire_id: str, now: datetime
    ) -> None:
        """A player belongs to one concessionaire for good: a second one is refused."""
        inserted = await session.execute(
            insert_ignoring_conflicts(session, players).values(
                player_id=player_id, concessionaire_id=concessionaire_id, registered_at=now
            )
        )
        if inserted.rowcount:  # type: ignore[attr-defined]
            _inserted_here(session).add(player_id)
        owner = await session.scalar(_CONCESSIONAIRE_OF, {"player_id": player_id})
        if owner != concessionaire_id:
            raise ForbiddenConcessionaire(
                f"Player {player_id!r} belongs to another concessionaire.", player_id=player_id
            )

    # -- accounts ---------------------------------------------------------------------------------------------
    async def resolve(
        self, session: AsyncSession, keys: Iterable[AccountKey], now: datetime
    ) -> dict[AccountKey, Account]:
        """The accounts of `keys`; system accounts and a known player's bonus account are opened on first use,
        a player's cash account must have been opened (which registers the player with its concessionaire)."""
        (resolved,) = await self.resolve_each(session, [keys], now)
        if isinstance(resolved, UnknownAccount):
            raise resolved
        return resolved

    async def resolve_each(
        self, session: AsyncSession, key_sets: Sequence[Iterable[AccountKey]], now: datetime
    ) -> list[dict[AccountKey, Account] | UnknownAccount]:
        """`resolve` of each set of keys, with one SELECT for them all: its accounts, or the refusal of a set that
        names a player's account never opened."""
        sets = [set(keys) for keys in key_sets]
        found = await self.find_many(session, set().union(*sets))
        resolved: list[dict[AccountKey, Account] | UnknownAccount] = []
        for keys in sets:
            try:
                await self._open_missing(session, keys - found.keys(), found, now)
            except UnknownAccount as refusal:
                resolved.append(refusal)
            else:
                resolved.append({key: found[key] for key in keys})
        return resolved

    async def _open_missing(
        self, session: AsyncSession, missing: set[AccountKey], found: dict[AccountKey, Account], now: datetime
    ) -> None:
        """Open the accounts of `missing` into `found`, in key order, until a player's account never opened."""
        for key in sorted(missing):
            if key.kind is AccountKind.PLAYER:
                raise UnknownAccount(
                    f"Player {key.owner!r} has no {key.currency} account.", player_id=key.owner, currency=key.currency
                )
            # A player's bonus account opens with its first bonus prize, under the player's concessionaire.
            concessionaire = (
                await self.concessionaire_of(session, key.owner) if key.kind.owned_by_player else key.concessionaire_id
            )
            found[key] = await self.open(session, key, concessionaire, now)

    async def find_many(self, session: AsyncSession, keys: Iterable[AccountKey]) -> dict[AccountKey, Account]:
        """The accounts of `keys` that are open, with one SELECT for those not known yet."""
        wanted = set(keys)
        found = {key: self._accounts[key] for key in wanted if key in self._accounts}
        missing = wanted - found.keys()
        if missing:
            for account in await self._select(session, missing):
                found[account.key] = account
                self._remember(session, account)
        return found

    async def find(self, session: AsyncSession, key: AccountKey) -> Account | None:
        if key in self._accounts:
            return self._accounts[key]
        found = await self._select(session, {key})
        if not found:
            return None
        self._remember(session, found[0])
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
            _inserted_here(session).add(key)
            return Account(inserted.id, key, concessionaire_id)
        existing = await self._select(session, {key})
        if existing:
            self._remember(session, existing[0])
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

    def _remember(self, session: AsyncSession, account: Account) -> None:
        if account.key not in _inserted_here(session):
            self._accounts[account.key] = account

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


# Accounts per UPDATE: one statement covers every command but the largest payouts and refunds, whose accounts go
# in several statements (a statement's size and the work of its per-account CASE grow with its accounts).
ACCOUNTS_PER_STATEMENT = 100


async def apply_changes(
    session: AsyncSession, changes: Mapping[int, AccountChange], riders: Riders = NO_RIDERS
) -> None:
    """Add each change to its account's running totals (by account id), refused whole with InsufficientFunds;
    `riders` go with the first UPDATE (adapters/riders.py), or alone if no account changes.

    No overdraft: an account that may not go negative is only changed while its available balance covers the
    change. The check and the change are one UPDATE, so two concurrent transactions can never both spend the
    same money (the second waits for the first's row lock, then re-checks the row as committed).

    No deadlock: the rows are locked in one global order, by account id. On PostgreSQL the accounts are first
    locked by one SELECT … ORDER BY id FOR NO KEY UPDATE (the lock the UPDATE takes), then changed by one
    UPDATE: that UPDATE starts once every lock is held, sees the rows as they are and never waits. (Locking
    inside the UPDATE, whose snapshot predates the waits, did deadlock under load: it re-locks the older row
    versions it sees, and meets the key-share locks that other transactions' transfers take on the accounts.)
    A single account needs no ordering; a long list goes in statements of consecutive ids."""
    ids = sorted(changes)
    if not ids:
        await riders.execute(session, None, {})
    for start in range(0, len(ids), ACCOUNTS_PER_STATEMENT):
        chunk = ids[start : start + ACCOUNTS_PER_STATEMENT]
        if len(chunk) > 1 and for_update(session) and not set(chunk) <= session.info.get(_LOCKED, set()):
            await session.execute(_LOCK_CHUNK, {"ids": chunk})
        params: dict[str, int] = {}
        for number, account_id in enumerate(chunk):
            params[f"id_{number}"] = account_id
            params[f"balance_{number}"] = changes[account_id].balance
            params[f"held_{number}"] = changes[account_id].held
        riding = riders if start == 0 else NO_RIDERS
        result = await riding.execute(session, _change_statement(len(chunk)), params)
        assert result is not None
        if result.rowcount != len(chunk):  # type: ignore[attr-defined]
            raise await _insufficient(session, {account_id: changes[account_id] for account_id in chunk})


# FOR NO KEY UPDATE, not FOR UPDATE: FOR UPDATE would also wait for the key-share locks that other transactions'
# transfers (their foreign keys) hold on these accounts, taken in their own order: a deadlock. ORDER BY then
# the lock: the rows are locked one after the other in that order. (SQLite has no row locks: never run there.)
LOCK_IN_ORDER = select(accounts.c.id).order_by(accounts.c.id).with_for_update(key_share=True)
_LOCK_CHUNK = LOCK_IN_ORDER.where(accounts.c.id.in_(bindparam("ids", expanding=True)))
_LOCKED = "wallet.accounts_locked_in_order"


async def lock_available(session: AsyncSession, ids: Iterable[int]) -> dict[int, int | None]:
    """The available balance (balance − held) of each account, None for one that may go negative, read under the
    accounts' locks (on PostgreSQL, taken in id order, as every transaction of the wallet takes them; on SQLite the
    transaction holds the database's write lock already): no transaction changes them before this one ends, so
    changes checked against them here pass when `apply_changes` makes them."""
    ordered = sorted(set(ids))
    rows = await session.execute(_AVAILABLE_LOCKED if for_update(session) else _AVAILABLE, {"ids": ordered})
    if for_update(session):
        locked_in_order(session, ordered)
    return {row.id: None if row.may_go_negative else row.balance - row.held for row in rows}


_AVAILABLE = (
    select(accounts.c.id, accounts.c.balance, accounts.c.held, accounts.c.may_go_negative)
    .where(accounts.c.id.in_(bindparam("ids", expanding=True)))
    .order_by(accounts.c.id)
)
_AVAILABLE_LOCKED = _AVAILABLE.with_for_update(key_share=True)


def locked_in_order(session: AsyncSession, ids: Iterable[int]) -> None:
    """Note that this transaction locked these accounts by `LOCK_IN_ORDER` (all at once, the operation's
    statement does it): `apply_changes` then changes them without locking them again. Only a set locked in one
    statement counts: holding some rows while locking others would break the global order."""
    session.info.setdefault(_LOCKED, set()).update(ids)


@functools.lru_cache(maxsize=ACCOUNTS_PER_STATEMENT)
def _change_statement(count: int) -> Update:
    """The UPDATE of `count` accounts, with bound parameters `id_n`, `balance_n` and `held_n`: built and
    compiled once per count, not per transaction."""
    ids = [bindparam(f"id_{number}", type_=BigInteger) for number in range(count)]

    def per_account(column: str) -> Case[Any]:
        whens = [(accounts.c.id == ids[n], bindparam(f"{column}_{n}", type_=BigInteger)) for n in range(count)]
        return case(*whens, else_=0)

    balance, held = per_account("balance"), per_account("held")
    covered = or_(accounts.c.may_go_negative, accounts.c.balance + balance - (accounts.c.held + held) >= 0)
    return (
        update(accounts)
        .where(accounts.c.id.in_(ids), covered)
        .values(balance=accounts.c.balance + balance, held=accounts.c.held + held)
    )


async def _insufficient(session: AsyncSession, changes: Mapping[int, AccountChange]) -> InsufficientFunds:
    """The refusal of a change that some account did not cover, naming the first such account. A single
    account is not locked before its UPDATE, so money may have arrived since the check: the refusal then names
    the account that was short and shows what it has now."""
    rows = await session.execute(select(accounts).where(accounts.c.id.in_(list(changes))).order_by(accounts.c.id))
    spending = [row for row in rows if not row.may_go_negative and changes[row.id].available < 0]
    assert spending, f"an account change was refused, yet it spends from no checked account: {dict(changes)}"
    short = next((row for row in spending if row.balance - row.held < -changes[row.id].available), spending[0])
    return insufficient_funds(account_from_row(short).key, short.balance - short.held, -changes[short.id].available)


def insufficient_funds(key: AccountKey, available: int, needed: int) -> InsufficientFunds:
    """The refusal of a change the account `key` does not cover, in the words every path of the wallet uses."""
    return InsufficientFunds(
        f"Account {key} has {available} available, {needed} needed.",
        account=str(key),
        available=available,
        needed=needed,
    )
