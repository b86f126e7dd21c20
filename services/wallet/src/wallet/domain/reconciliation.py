"""Reconciliation: what must hold of the ledger at any moment, and the report that says whether it does.

Per currency: the balances of all accounts sum to zero (every transfer credits what it debits); each
account's stored balance equals the sum of its entries (credits − debits); each account's held amount equals
its pending holds.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime


@dataclass(frozen=True)
class AccountDrift:
    account: str
    balance: int
    balance_from_entries: int
    held: int
    held_from_holds: int


@dataclass(frozen=True)
class CurrencyCheck:
    currency: str
    accounts: int
    sum_of_balances: int
    drifts: tuple[AccountDrift, ...]

    @property
    def ok(self) -> bool:
        return self.sum_of_balances == 0 and not self.drifts


@dataclass(frozen=True)
class Report:
    checked_at: datetime
    currencies: tuple[CurrencyCheck, ...]

    @property
    def ok(self) -> bool:
        return all(check.ok for check in self.currencies)

    @property
    def failures(self) -> tuple[CurrencyCheck, ...]:
        return tuple(check for check in self.currencies if not check.ok)


def report(
    checked_at: datetime,
    sums: Iterable[tuple[str, int, int]],
    drifts: Sequence[tuple[str, AccountDrift]],
) -> Report:
    """`sums`: (currency, number of accounts, sum of balances); `drifts`: (currency, drift) per bad account."""
    by_currency: dict[str, list[AccountDrift]] = {}
    for currency, drift in drifts:
        by_currency.setdefault(currency, []).append(drift)
    checks = tuple(
        CurrencyCheck(currency, accounts, total, tuple(by_currency.pop(currency, ())))
        for currency, accounts, total in sorted(sums)
    )
    # A drifted account in a currency without any account row cannot exist, but would not be hidden either.
    orphans = tuple(CurrencyCheck(currency, 0, 0, tuple(items)) for currency, items in sorted(by_currency.items()))
    return Report(checked_at, checks + orphans)
