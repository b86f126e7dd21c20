"""Request and response bodies of the wallet API. Amounts are integers of minor units (floats are refused). The
bodies of the operations other services call are declared with those operations, in the kit
(platform_kit.wallet_operations)."""

from __future__ import annotations

from datetime import datetime
from typing import Literal

from platform_kit.wallet_operations import Amount, CurrencyCode, Reference, WalletBody
from pydantic import BaseModel, Field

from wallet.adapters.accounts import Account, AccountState
from wallet.adapters.ledger import PostedOperation
from wallet.adapters.statements import StatementLine
from wallet.domain.accounts import AccountKey
from wallet.domain.currencies import Currency
from wallet.domain.currencies import currency as known_currency
from wallet.domain.reconciliation import Report
from wallet.service.holds import Hold
from wallet.service.queries import StatementPage, TaxBaseLine


# -- requests -----------------------------------------------------------------------------------------------
class PartnerOpenAccountIn(WalletBody):
    currency: CurrencyCode


class CashIn(WalletBody):
    """A deposit or withdrawal made at the concessionaire's cashier."""

    currency: CurrencyCode
    amount: Amount
    reference: Reference = None


class FundingIn(WalletBody):
    account_kind: Literal["sponsorship", "jackpot_fund"]
    currency: CurrencyCode
    amount: Amount
    reference: Reference = None


# -- responses ----------------------------------------------------------------------------------------------
class AccountRefOut(BaseModel):
    id: int
    kind: str
    owner: str

    @classmethod
    def of(cls, account: Account) -> AccountRefOut:
        return cls(id=account.id, kind=str(account.key.kind), owner=account.key.owner)


class AccountOut(BaseModel):
    id: int
    kind: str = Field(
        description="A player's accounts are `player` (its cash, the only money withdrawn) and `bonus` (bonus "
        "prizes, P-9.3, not withdrawable)."
    )
    owner: str
    currency: str
    minor_units: int
    concessionaire_id: str | None
    balance: int
    held: int
    available: int

    @classmethod
    def of(cls, state: AccountState) -> AccountOut:
        key = state.account.key
        return cls(
            id=state.account.id,
            kind=str(key.kind),
            owner=key.owner,
            currency=key.currency,
            minor_units=known_currency(key.currency).minor_units,
            concessionaire_id=state.account.concessionaire_id,
            balance=state.balance,
            held=state.held,
            available=state.available,
        )


class PlayerAccountsOut(BaseModel):
    player_id: str
    concessionaire_id: str
    accounts: list[AccountOut]


class TransferOut(BaseModel):
    debit: AccountRefOut
    credit: AccountRefOut
    amount: int
    purpose: str


class OperationOut(BaseModel):
    operation_id: int
    kind: str
    currency: str
    tournament_id: str | None
    draw_id: str | None
    player_id: str | None
    concessionaire_id: str | None
    reference: str | None
    tax_base: int | None
    reverses_operation_id: int | None
    created_at: datetime
    transfers: list[TransferOut]

    @classmethod
    def of(cls, posted: PostedOperation) -> OperationOut:
        operation = posted.operation
        return cls(
            operation_id=posted.id,
            kind=str(operation.kind),
            currency=operation.currency,
            tournament_id=operation.tournament_id,
            draw_id=operation.draw_id,
            player_id=operation.player_id,
            concessionaire_id=operation.concessionaire_id,
            reference=operation.reference,
            tax_base=None if operation.tax_base is None else operation.tax_base.amount,
            reverses_operation_id=operation.reverses,
            created_at=posted.created_at,
            transfers=[
                TransferOut(
                    debit=AccountRefOut.of(t.debit),
                    credit=AccountRefOut.of(t.credit),
                    amount=t.amount,
                    purpose=t.purpose,
                )
                for t in posted.transfers
            ],
        )


class HoldOut(BaseModel):
    hold_id: int
    status: str
    account: AccountRefOut
    destination: AccountRefOut
    currency: str
    amount: int
    posted_amount: int | None
    operation_id: int | None
    reference: str | None
    created_at: datetime
    expires_at: datetime
    resolved_at: datetime | None

    @classmethod
    def of(cls, hold: Hold) -> HoldOut:
        row = hold.row
        return cls(
            hold_id=row.id,
            status=str(row.status),
            account=AccountRefOut.of(hold.account),
            destination=AccountRefOut.of(hold.destination),
            currency=hold.account.key.currency,
            amount=row.amount,
            posted_amount=row.posted_amount,
            operation_id=row.operation_id,
            reference=row.reference,
            created_at=row.created_at,
            expires_at=row.expires_at,
            resolved_at=row.resolved_at,
        )


class KeyOut(BaseModel):
    kind: str
    owner: str
    currency: str

    @classmethod
    def of(cls, key: AccountKey) -> KeyOut:
        return cls(kind=str(key.kind), owner=key.owner, currency=key.currency)


class StatementLineOut(BaseModel):
    transfer_id: int
    account: KeyOut
    counterparty: KeyOut
    amount: int = Field(description="Signed: positive credits the account, negative debits it.")
    purpose: str
    operation_id: int
    operation_kind: str
    tournament_id: str | None
    draw_id: str | None
    reference: str | None
    created_at: datetime


class StatementOut(BaseModel):
    items: list[StatementLineOut]
    next_cursor: str | None = Field(description="Pass as `cursor` for the next (older) page; null on the last.")

    @classmethod
    def of(cls, page: StatementPage) -> StatementOut:
        return cls(items=[_line(line) for line in page.lines], next_cursor=page.next_cursor)


def _line(line: StatementLine) -> StatementLineOut:
    return StatementLineOut(
        transfer_id=line.transfer_id,
        account=KeyOut.of(line.account),
        counterparty=KeyOut.of(line.counterparty),
        amount=line.amount,
        purpose=line.purpose,
        operation_id=line.operation_id,
        operation_kind=line.operation_kind,
        tournament_id=line.tournament_id,
        draw_id=line.draw_id,
        reference=line.reference,
        created_at=line.created_at,
    )


class TaxBaseOut(BaseModel):
    concessionaire_id: str
    currency: str
    amount: int
    entries: int

    @classmethod
    def of(cls, line: TaxBaseLine) -> TaxBaseOut:
        return cls(
            concessionaire_id=line.concessionaire_id, currency=line.currency, amount=line.amount, entries=line.entries
        )


class TournamentLedgerOut(BaseModel):
    tournament_id: str
    escrow: AccountOut | None
    tax_base: list[TaxBaseOut] = Field(description="P-8.7: the taxable entries per concessionaire and currency.")


class DrawPoolsOut(BaseModel):
    draw_id: str
    pools: list[AccountOut]


class ConcessionaireAccountsOut(BaseModel):
    concessionaire_id: str
    accounts: list[AccountOut]


class DriftOut(BaseModel):
    account: str
    balance: int
    balance_from_entries: int
    held: int
    held_from_holds: int


class CurrencyCheckOut(BaseModel):
    currency: str
    ok: bool
    accounts: int
    sum_of_balances: int
    drifts: list[DriftOut]


class ReconciliationOut(BaseModel):
    ok: bool
    checked_at: datetime
    currencies: list[CurrencyCheckOut]

    @classmethod
    def of(cls, result: Report) -> ReconciliationOut:
        return cls(
            ok=result.ok,
            checked_at=result.checked_at,
            currencies=[
                CurrencyCheckOut(
                    currency=check.currency,
                    ok=check.ok,
                    accounts=check.accounts,
                    sum_of_balances=check.sum_of_balances,
                    drifts=[DriftOut(**vars(drift)) for drift in check.drifts],
                )
                for check in result.currencies
            ],
        )


class CurrencyOut(BaseModel):
    code: str
    minor_units: int
    name: str

    @classmethod
    def of(cls, currency: Currency) -> CurrencyOut:
        return cls(code=currency.code, minor_units=currency.minor_units, name=currency.name)
