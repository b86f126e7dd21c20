"""How operations and holds change accounts: the net change per account of an operation, and the change of an
account's running totals (balance and held) that the no-overdraft rule checks."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from wallet.domain.accounts import AccountKey
from wallet.domain.operations import Leg


def net_changes(legs: Iterable[Leg]) -> dict[AccountKey, int]:
    """Credits minus debits per account. A buy-in debits the player twice (prize part and fee): the player's
    balance is checked and changed once, by the sum."""
    changes: dict[AccountKey, int] = defaultdict(int)
    for leg in legs:
        changes[leg.debit] -= leg.amount
        changes[leg.credit] += leg.amount
    return {key: change for key, change in changes.items() if change}


@dataclass(frozen=True)
class AccountChange:
    """What a transaction adds to an account's balance and to its held amount. Reserving a hold adds to
    `held`, releasing it takes it off again, posting it does both (the posted part leaves the balance)."""

    balance: int = 0
    held: int = 0

    @property
    def available(self) -> int:
        """The change of the available balance (balance − held): an account that may not go negative must
        cover it when it is negative."""
        return self.balance - self.held

    def __add__(self, other: AccountChange) -> AccountChange:
        return AccountChange(self.balance + other.balance, self.held + other.held)


def account_changes(legs: Iterable[Leg], released: Mapping[AccountKey, int]) -> dict[AccountKey, AccountChange]:
    """What an operation does to its accounts: the net change of each balance, and the held amounts it
    releases in the same step (posting a hold)."""
    changes = {key: AccountChange(balance=change) for key, change in net_changes(legs).items()}
    for key, amount in released.items():
        changes[key] = changes.get(key, AccountChange()) + AccountChange(held=-amount)
    return changes


@dataclass(frozen=True)
class Shortfall:
    """An account that does not cover a change: what it has available (after the changes before), what the change
    takes from it."""

    account: int
    available: int
    needed: int


def cover_in_turn(
    available: Mapping[int, int | None], changes: Sequence[Mapping[int, AccountChange]]
) -> list[Shortfall | None]:
    """Which of `changes` (each: account → change) the accounts cover when made one after the other, each from
    what those before it left; `available` holds what each account has (None: it may go negative). A change that
    some account does not cover is not made (its shortfall, the first such account by id); the others are, as
    `apply_changes` would make them one transaction at a time."""
    left = dict(available)
    answers: list[Shortfall | None] = []
    for change in changes:
        short = _shortfall(left, change)
        if short is None:
            for account, delta in change.items():
                has = left[account]
                left[account] = None if has is None else has + delta.available
        answers.append(short)
    return answers


def _shortfall(left: Mapping[int, int | None], change: Mapping[int, AccountChange]) -> Shortfall | None:
    for account, delta in sorted(change.items()):
        has = left[account]
        if has is not None and has + delta.available < 0:
            return Shortfall(account, has, -delta.available)
    return None
