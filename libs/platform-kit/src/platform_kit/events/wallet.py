"""Events the wallet publishes: money operations posted, holds created and resolved, reconciliation failures.

Amounts are integers of minor units of `currency`. Accounts are named by kind and owner (a player id, a
concessionaire id, a tournament or draw id, or "network").
"""

from __future__ import annotations

from datetime import datetime

from pydantic import BaseModel, ConfigDict

from platform_kit.events.base import Event


class AccountRef(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    kind: str
    owner: str


class Posting(BaseModel):
    """One transfer: `amount` debited from `debit` and credited to `credit`."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    debit: AccountRef
    credit: AccountRef
    amount: int
    purpose: str


class OperationPosted(Event):
    """A money operation (buy-in, payout, deposit, stake, reversal …) was posted: all its transfers at once."""

    TYPE = "wallet.operation.posted"

    operation_id: int
    kind: str
    currency: str
    tournament_id: str | None = None
    draw_id: str | None = None
    player_id: str | None = None
    concessionaire_id: str | None = None
    reference: str | None = None
    tax_base: int | None = None
    reverses_operation_id: int | None = None
    postings: list[Posting]
    posted_at: datetime


class AccountOpened(Event):
    """A player's account in one currency was opened, registered to the player's concessionaire."""

    TYPE = "wallet.account.opened"

    account_id: int
    player_id: str
    concessionaire_id: str
    currency: str


class HoldCreated(Event):
    """Money was reserved on an account, to be posted to `destination` or released."""

    TYPE = "wallet.hold.created"

    hold_id: int
    account: AccountRef
    destination: AccountRef
    currency: str
    amount: int
    expires_at: datetime


class HoldPosted(Event):
    """A hold was posted: `amount` moved to its destination (operation `operation_id`), `released` freed."""

    TYPE = "wallet.hold.posted"

    hold_id: int
    operation_id: int
    amount: int
    released: int


class HoldVoided(Event):
    """A hold was voided: all its amount is available again."""

    TYPE = "wallet.hold.voided"

    hold_id: int
    released: int


class HoldExpired(Event):
    """A hold reached its expiry unresolved and was released."""

    TYPE = "wallet.hold.expired"

    hold_id: int
    released: int


class CurrencyImbalance(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    currency: str
    sum_of_balances: int
    drifted_accounts: list[str]


class ReconciliationFailed(Event):
    """The ledger stopped adding up: a currency's balances do not sum to zero, or an account's balance differs
    from its entries. Operators must look at once."""

    TYPE = "wallet.reconciliation.failed"

    checked_at: datetime
    failures: list[CurrencyImbalance]
