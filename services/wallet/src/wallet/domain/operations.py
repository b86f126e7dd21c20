"""The money operations of the platform, each a set of transfers that post together or not at all.

A builder here turns a request ("player p buys into tournament t for 90+10") into the legs that move the
money, without any I/O; the service posts them in one database transaction. Every leg debits one account and
credits another by the same positive amount in the operation's currency, so every operation — and hence the
whole ledger — sums to zero per currency.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum

from platform_kit.rules.entry_price import prize_part_meets_floor

from wallet.domain.accounts import AccountKey, AccountKind
from wallet.domain.currencies import currency as known_currency
from wallet.domain.errors import (
    CurrencyMismatch,
    DuplicatePlayer,
    InvalidAmount,
    JackpotNotFromFee,
    PrizePartTooSmall,
)


class OperationKind(StrEnum):
    # the concessionaire's cashier (partner API)
    DEPOSIT = "deposit"
    WITHDRAWAL = "withdrawal"
    FUNDING = "funding"
    # tournaments (P-3.4, P-4.4, P-8, P-9, P-10)
    BUY_IN = "buy_in"
    REBUY = "rebuy"
    ADD_ON = "add_on"
    SATELLITE_ENTRY = "satellite_entry"
    SPONSORED_ENTRY = "sponsored_entry"
    GUARANTEE_OVERLAY = "guarantee_overlay"
    CANCELLATION_OVERLAY = "cancellation_overlay"
    PRIZE_PAYOUT = "prize_payout"
    BONUS_PRIZES = "bonus_prizes"
    REFUND = "refund"
    JACKPOT_AWARD = "jackpot_award"
    TAX_ACCRUAL = "tax_accrual"
    # totalizator (T-6)
    STAKE = "stake"
    DRAW_PAYOUT = "draw_payout"
    DRAW_REFUND = "draw_refund"
    ORGANIZER_SHARE = "organizer_share"
    ORGANIZER_TOP_UP = "organizer_top_up"
    ROUNDING_REMAINDER = "rounding_remainder"
    JACKPOT_CARRY = "jackpot_carry"
    JACKPOT_RELEASE = "jackpot_release"
    # the ledger's own
    HOLD_POST = "hold_post"
    REVERSAL = "reversal"


PAID_ENTRY_KINDS = (OperationKind.BUY_IN, OperationKind.REBUY, OperationKind.ADD_ON)
OVERLAY_KINDS = (OperationKind.GUARANTEE_OVERLAY, OperationKind.CANCELLATION_OVERLAY)
DRAW_PAYMENT_KINDS = (OperationKind.DRAW_PAYOUT, OperationKind.DRAW_REFUND)

# Movements between a draw's pool and the organizer's accounts (T-1.1, T-4, T-6.2, T-6.3): kind → whether the
# money leaves the pool, and the organizer account on the other side.
ORGANIZER_TRANSFERS: dict[OperationKind, tuple[bool, AccountKind]] = {
    OperationKind.ORGANIZER_SHARE: (True, AccountKind.NETWORK),
    OperationKind.ROUNDING_REMAINDER: (True, AccountKind.NETWORK),
    OperationKind.ORGANIZER_TOP_UP: (False, AccountKind.NETWORK),
    OperationKind.JACKPOT_CARRY: (True, AccountKind.TOTALIZATOR_JACKPOT),
    OperationKind.JACKPOT_RELEASE: (False, AccountKind.TOTALIZATOR_JACKPOT),
}


@dataclass(frozen=True)
class Leg:
    debit: AccountKey
    credit: AccountKey
    amount: int
    purpose: str


@dataclass(frozen=True)
class TaxBase:
    """P-8.7: the part of an entry that is taxable, recorded per tournament and concessionaire (no money moves)."""

    tournament_id: str
    concessionaire_id: str
    amount: int


@dataclass(frozen=True)
class Operation:
    """An operation ready to post. Build it with the functions below, which check its legs."""

    kind: OperationKind
    currency: str
    legs: tuple[Leg, ...]
    tournament_id: str | None = None
    draw_id: str | None = None
    player_id: str | None = None
    concessionaire_id: str | None = None
    reference: str | None = None
    tax_base: TaxBase | None = None
    reverses: int | None = None

    def __post_init__(self) -> None:
        known_currency(self.currency)
        if not self.legs:
            raise InvalidAmount("An operation moves some money: every amount is zero.")
        for leg in self.legs:
            check_amount(leg.amount, leg.purpose, allow_zero=False)
            if leg.debit == leg.credit:
                raise InvalidAmount("A transfer needs two different accounts.", account=str(leg.debit))
            for key in (leg.debit, leg.credit):
                if key.currency != self.currency:
                    raise CurrencyMismatch(
                        f"Account {key} is in {key.currency}, the operation in {self.currency}.",
                        account=str(key),
                        currency=self.currency,
                    )

    @property
    def accounts(self) -> set[AccountKey]:
        return {key for leg in self.legs for key in (leg.debit, leg.credit)}


def check_amount(amount: int, what: str, *, allow_zero: bool) -> None:
    """Amounts are integers of minor units; `bool` is refused although Python counts it as an int."""
    if not isinstance(amount, int) or isinstance(amount, bool) or amount < 0 or (amount == 0 and not allow_zero):
        bound = "zero or more" if allow_zero else "more than zero"
        raise InvalidAmount(f"{what} must be an integer of minor units, {bound}.", field=what, amount=amount)


def _legs(*candidates: Leg) -> tuple[Leg, ...]:
    """Legs of zero are left out: a 100+0 buy-in is one transfer, not two."""
    for leg in candidates:
        check_amount(leg.amount, leg.purpose, allow_zero=True)
    return tuple(leg for leg in candidates if leg.amount)


# -- the concessionaire's cashier -------------------------------------------------------------------------
def deposit(player_id: str, concessionaire_id: str, currency: str, amount: int, reference: str | None) -> Operation:
    cash = AccountKey.of_concessionaire(AccountKind.CASH, concessionaire_id, currency)
    return Operation(
        OperationKind.DEPOSIT,
        currency,
        (Leg(cash, AccountKey.player(player_id, currency), amount, "deposit"),),
        player_id=player_id,
        concessionaire_id=concessionaire_id,
        reference=reference,
    )


def withdrawal(player_id: str, concessionaire_id: str, currency: str, amount: int, reference: str | None) -> Operation:
    cash = AccountKey.of_concessionaire(AccountKind.CASH, concessionaire_id, currency)
    return Operation(
        OperationKind.WITHDRAWAL,
        currency,
        (Leg(AccountKey.player(player_id, currency), cash, amount, "withdrawal"),),
        player_id=player_id,
        concessionaire_id=concessionaire_id,
        reference=reference,
    )


FUNDABLE_KINDS = (AccountKind.SPONSORSHIP, AccountKind.JACKPOT_FUND)


def funding(
    concessionaire_id: str, target: AccountKind, currency: str, amount: int, reference: str | None
) -> Operation:
    """A concessionaire brings its own money in: for overlays and sponsored entries, or to seed a jackpot."""
    if target not in FUNDABLE_KINDS:
        raise InvalidAmount(f"Only {', '.join(FUNDABLE_KINDS)} accounts are funded.", account_kind=str(target))
    cash = AccountKey.of_concessionaire(AccountKind.CASH, concessionaire_id, currency)
    account = AccountKey.of_concessionaire(target, concessionaire_id, currency)
    return Operation(
        OperationKind.FUNDING,
        currency,
        (Leg(cash, account, amount, "funding"),),
        concessionaire_id=concessionaire_id,
        reference=reference,
    )


# -- tournaments --------------------------------------------------------------------------------------------
def check_price_split(prize_part: int, fee: int) -> None:
    """P-8.1: the price is prize part + fee, and the prize part is never less than 80% of the price (the rule
    the director also applies to the prices it defines: `platform_kit.rules.entry_price`). A paid entry costs
    something: 0 + 0 is a freeroll's, which never reaches the wallet."""
    check_amount(prize_part, "prize_part", allow_zero=True)
    check_amount(fee, "fee", allow_zero=True)
    if prize_part + fee == 0:
        raise InvalidAmount("An entry has a price: prize part and fee are both zero.")
    if not prize_part_meets_floor(prize_part, fee):
        raise PrizePartTooSmall(
            "The prize part must be at least 80% of the price (P-8.1).", prize_part=prize_part, fee=fee
        )


def paid_entry(
    kind: OperationKind,
    *,
    player_id: str,
    concessionaire_id: str,
    tournament_id: str,
    currency: str,
    prize_part: int,
    fee: int,
    jackpot_contribution: int = 0,
) -> Operation:
    """Buy-in, rebuy or add-on (P-8.1, P-4.4): the prize part to the tournament's escrow, the fee to the
    player's concessionaire's margin, of which `jackpot_contribution` goes to its jackpot fund (P-8.6); the
    full price is recorded as tax base (P-8.7)."""
    assert kind in PAID_ENTRY_KINDS, kind
    check_price_split(prize_part, fee)
    check_amount(jackpot_contribution, "jackpot_contribution", allow_zero=True)
    if jackpot_contribution > fee:
        raise JackpotNotFromFee(
            "A jackpot is funded from the fee, never from the prize pool (P-8.6).",
            fee=fee,
            jackpot_contribution=jackpot_contribution,
        )
    player = AccountKey.player(player_id, currency)
    return Operation(
        kind,
        currency,
        _legs(
            Leg(player, AccountKey.escrow(tournament_id, currency), prize_part, "prize_part"),
            Leg(
                player,
                AccountKey.of_concessionaire(AccountKind.MARGIN, concessionaire_id, currency),
                fee - jackpot_contribution,
                "fee",
            ),
            Leg(
                player,
                AccountKey.of_concessionaire(AccountKind.JACKPOT_FUND, concessionaire_id, currency),
                jackpot_contribution,
                "jackpot_contribution",
            ),
        ),
        tournament_id=tournament_id,
        player_id=player_id,
        concessionaire_id=concessionaire_id,
        tax_base=TaxBase(tournament_id, concessionaire_id, prize_part + fee),
    )


def satellite_entry(
    *,
    player_id: str,
    concessionaire_id: str,
    tournament_id: str,
    satellite_id: str,
    currency: str,
    prize_part: int,
    fee: int,
) -> Operation:
    """P-3.4: a player qualified from a satellite counts, for the prize pool and the tax base, exactly as if
    the buy-in had been paid — paid out of the satellite's own prize pool, which collected it."""
    check_price_split(prize_part, fee)
    satellite = AccountKey.escrow(satellite_id, currency)
    return Operation(
        OperationKind.SATELLITE_ENTRY,
        currency,
        _legs(
            Leg(satellite, AccountKey.escrow(tournament_id, currency), prize_part, "prize_part"),
            Leg(satellite, AccountKey.of_concessionaire(AccountKind.MARGIN, concessionaire_id, currency), fee, "fee"),
        ),
        tournament_id=tournament_id,
        player_id=player_id,
        concessionaire_id=concessionaire_id,
        reference=satellite_id,
        tax_base=TaxBase(tournament_id, concessionaire_id, prize_part + fee),
    )


def sponsored_entry(
    *, player_id: str, concessionaire_id: str, tournament_id: str, currency: str, amount: int, fee: int = 0
) -> Operation:
    """P-9.2: for a cash freeroll the concessionaire buys each player's entry; its prize part (`amount`) forms the
    prize pool, and the whole entry, fee included, is taxed (P-8.7). The fee moves nowhere: it would go from the
    concessionaire's sponsorship account to its own margin."""
    sponsor = AccountKey.of_concessionaire(AccountKind.SPONSORSHIP, concessionaire_id, currency)
    return Operation(
        OperationKind.SPONSORED_ENTRY,
        currency,
        (Leg(sponsor, AccountKey.escrow(tournament_id, currency), amount, "sponsored_entry"),),
        tournament_id=tournament_id,
        player_id=player_id,
        concessionaire_id=concessionaire_id,
        tax_base=TaxBase(tournament_id, concessionaire_id, amount + fee),
    )


def overlay(
    kind: OperationKind, *, concessionaire_id: str, tournament_id: str, currency: str, amount: int
) -> Operation:
    """P-8.3 guarantee overlay, or P-10.11 cancellation overlay: the concessionaire pays from its own account."""
    assert kind in OVERLAY_KINDS, kind
    sponsor = AccountKey.of_concessionaire(AccountKind.SPONSORSHIP, concessionaire_id, currency)
    return Operation(
        kind,
        currency,
        (Leg(sponsor, AccountKey.escrow(tournament_id, currency), amount, str(kind)),),
        tournament_id=tournament_id,
        concessionaire_id=concessionaire_id,
    )


def prize_payouts(*, tournament_id: str, currency: str, payouts: Sequence[tuple[str, int]]) -> Operation:
    """Prizes by position (P-8.4, P-8.5) in one operation: all are paid, or none."""
    escrow = AccountKey.escrow(tournament_id, currency)
    return Operation(
        OperationKind.PRIZE_PAYOUT,
        currency,
        _legs(*(Leg(escrow, AccountKey.player(player, currency), amount, "prize") for player, amount in payouts)),
        tournament_id=tournament_id,
    )


def bonus_prizes(
    *, concessionaire_id: str, tournament_id: str, currency: str, prizes: Sequence[tuple[str, int]]
) -> Operation:
    """P-9.1, P-9.3: a bonus freeroll's prizes, offered by the concessionaire, in one operation (all or none):
    from its sponsorship account (a promise, never refused, like an overlay) to each winner's bonus account.
    Bonus money is not withdrawable and forms no cash prize pool, so it is no tax base (P-9.2 is for cash)."""
    seen: set[str] = set()
    for player, _ in prizes:
        if player in seen:
            raise DuplicatePlayer(f"Player {player!r} is listed twice: one prize per player.", player_id=player)
        seen.add(player)
    sponsor = AccountKey.of_concessionaire(AccountKind.SPONSORSHIP, concessionaire_id, currency)
    return Operation(
        OperationKind.BONUS_PRIZES,
        currency,
        tuple(Leg(sponsor, AccountKey.bonus(player, currency), amount, "bonus_prize") for player, amount in prizes),
        tournament_id=tournament_id,
        concessionaire_id=concessionaire_id,
    )


@dataclass(frozen=True)
class EntryRefund:
    player_id: str
    concessionaire_id: str
    prize_part: int
    fee: int


def refunds(*, tournament_id: str, currency: str, items: Sequence[EntryRefund]) -> Operation:
    """P-10.10: refunds return the full price; the prize part comes from the escrow and the fee back from the
    margin of the concessionaire that took it."""
    escrow = AccountKey.escrow(tournament_id, currency)
    legs: list[Leg] = []
    for item in items:
        player = AccountKey.player(item.player_id, currency)
        margin = AccountKey.of_concessionaire(AccountKind.MARGIN, item.concessionaire_id, currency)
        legs += [Leg(escrow, player, item.prize_part, "prize_part"), Leg(margin, player, item.fee, "fee")]
    return Operation(OperationKind.REFUND, currency, _legs(*legs), tournament_id=tournament_id)


def jackpot_award(*, concessionaire_id: str, player_id: str, currency: str, amount: int) -> Operation:
    """P-8.6: a progressive jackpot is paid out of the concessionaire's jackpot fund."""
    fund = AccountKey.of_concessionaire(AccountKind.JACKPOT_FUND, concessionaire_id, currency)
    return Operation(
        OperationKind.JACKPOT_AWARD,
        currency,
        (Leg(fund, AccountKey.player(player_id, currency), amount, "jackpot"),),
        player_id=player_id,
        concessionaire_id=concessionaire_id,
    )


def tax_accrual(*, concessionaire_id: str, tournament_id: str, currency: str, amount: int) -> Operation:
    """P-8.7: the tax due on a tournament's base (rate is configuration of the caller) set aside from the margin."""
    return Operation(
        OperationKind.TAX_ACCRUAL,
        currency,
        (
            Leg(
                AccountKey.of_concessionaire(AccountKind.MARGIN, concessionaire_id, currency),
                AccountKey.of_concessionaire(AccountKind.TAX, concessionaire_id, currency),
                amount,
                "tax",
            ),
        ),
        tournament_id=tournament_id,
        concessionaire_id=concessionaire_id,
    )


# -- totalizator --------------------------------------------------------------------------------------------
def stake(*, player_id: str, draw_id: str, currency: str, amount: int, coupon_id: str | None) -> Operation:
    return Operation(
        OperationKind.STAKE,
        currency,
        (Leg(AccountKey.player(player_id, currency), AccountKey.pool(draw_id, currency), amount, "stake"),),
        draw_id=draw_id,
        player_id=player_id,
        reference=coupon_id,
    )


def draw_payments(
    kind: OperationKind, *, draw_id: str, currency: str, payments: Sequence[tuple[str, int]]
) -> Operation:
    """Payouts to winning coupons (T-6) or refunds (T-5.5), out of the draw's pool in their currency."""
    assert kind in DRAW_PAYMENT_KINDS, kind
    pool = AccountKey.pool(draw_id, currency)
    return Operation(
        kind,
        currency,
        _legs(*(Leg(pool, AccountKey.player(player, currency), amount, str(kind)) for player, amount in payments)),
        draw_id=draw_id,
    )


def organizer_transfer(kind: OperationKind, *, draw_id: str, currency: str, amount: int) -> Operation:
    """Organizer share (T-1.1), top-ups (T-6.2, T-4.4), rounding remainders (T-6.3), jackpot carry and release
    (T-3.2, T-4): between the draw's pool and the network's accounts."""
    from_pool, other_kind = ORGANIZER_TRANSFERS[kind]
    pool = AccountKey.pool(draw_id, currency)
    other = AccountKey.of_network(other_kind, currency)
    debit, credit = (pool, other) if from_pool else (other, pool)
    return Operation(kind, currency, (Leg(debit, credit, amount, str(kind)),), draw_id=draw_id)


# -- the ledger's own -------------------------------------------------------------------------------------
def hold_post(*, account: AccountKey, destination: AccountKey, amount: int, hold_id: int) -> Operation:
    return Operation(
        OperationKind.HOLD_POST,
        account.currency,
        (Leg(account, destination, amount, "hold"),),
        player_id=account.owner if account.kind is AccountKind.PLAYER else None,
        reference=str(hold_id),
    )


def reversal(original: Operation, operation_id: int, reason: str) -> Operation:
    """A correction is a new operation moving every leg back; the original stays in the ledger (append-only).
    A reversed entry's tax base is taken back too, since the entry is undone as if it had never been made."""
    base = original.tax_base
    return Operation(
        OperationKind.REVERSAL,
        original.currency,
        tuple(Leg(leg.credit, leg.debit, leg.amount, leg.purpose) for leg in original.legs),
        tournament_id=original.tournament_id,
        draw_id=original.draw_id,
        player_id=original.player_id,
        concessionaire_id=original.concessionaire_id,
        reference=reason,
        tax_base=None if base is None else TaxBase(base.tournament_id, base.concessionaire_id, -base.amount),
        reverses=operation_id,
    )
