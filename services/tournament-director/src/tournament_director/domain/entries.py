"""What an entry costs and how it was paid: the money facts that prize pool, tax and refunds are built from.

A price is written prize part + fee (P-8.1, e.g. 90+10): the prize part goes to the prize pool, the fee is the
concessionaire's gross margin. Every kind of entry — buy-in, rebuy, add-on, satellite qualification, sponsored
freeroll entry — is one `Entry` with its own price.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from platform_kit.rules.entry_price import prize_part_meets_floor
from pydantic import BaseModel, ConfigDict, NonNegativeInt


class Price(BaseModel):
    """A price in cents, split into the prize part (to the prize pool) and the fee (concessionaire's margin)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    prize_part_cents: NonNegativeInt
    fee_cents: NonNegativeInt

    @property
    def total_cents(self) -> int:
        return self.prize_part_cents + self.fee_cents

    @property
    def prize_part_meets_floor(self) -> bool:
        """P-8.1: the prize part is at least 80% of the price (the platform's one rule, which the wallet applies
        again to every entry it books)."""
        return prize_part_meets_floor(self.prize_part_cents, self.fee_cents)


#: What a freeroll entrant pays (P-9.1).
FREE = Price(prize_part_cents=0, fee_cents=0)


def format_euro(cents: int) -> str:
    """`1050` → `"€10.50"`, for error messages."""
    sign = "-" if cents < 0 else ""
    return f"{sign}€{abs(cents) // 100}.{abs(cents) % 100:02d}"


class EntryKind(StrEnum):
    BUY_IN = "buy_in"
    REBUY = "rebuy"
    ADDON = "addon"
    #: Registration won in a satellite; counts as if the buy-in had been paid (P-3.4).
    SATELLITE = "satellite"
    #: The entry a concessionaire buys for a freeroll player when prizes are cash (P-9.2).
    SPONSORED = "sponsored"


class PaymentForm(StrEnum):
    """How an entry was paid, which is also how it is refunded (P-10.12)."""

    CASH = "cash"
    #: A ticket (token) or a satellite qualification: refunded as a fresh ticket.
    TICKET = "ticket"


@dataclass(frozen=True)
class Entry:
    """One paid entry of one player: its kind, its price and how it was paid."""

    kind: EntryKind
    price: Price
    form: PaymentForm = PaymentForm.CASH
