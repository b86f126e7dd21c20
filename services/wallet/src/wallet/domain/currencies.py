"""Currencies the ledger keeps, with their ISO 4217 minor units.

Every amount in the wallet is an integer count of minor units of one currency (cents for EUR, yen for JPY,
fils for KWD). The minor units say how such an integer reads as a decimal amount; they never change what
is stored.
"""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal

from wallet.domain.errors import UnknownCurrency


@dataclass(frozen=True)
class Currency:
    code: str
    minor_units: int
    name: str

    def to_decimal(self, amount: int) -> Decimal:
        """`1234` EUR minor units → `Decimal("12.34")`: for display and reports, never for arithmetic."""
        return Decimal(amount).scaleb(-self.minor_units)


# ISO 4217 (the currencies the platform's operators and the totalizator's FX table use).
CURRENCIES: dict[str, Currency] = {
    c.code: c
    for c in (
        Currency("EUR", 2, "Euro"),
        Currency("USD", 2, "US Dollar"),
        Currency("RUB", 2, "Russian Ruble"),
        Currency("GBP", 2, "Pound Sterling"),
        Currency("CHF", 2, "Swiss Franc"),
        Currency("PLN", 2, "Zloty"),
        Currency("CZK", 2, "Czech Koruna"),
        Currency("SEK", 2, "Swedish Krona"),
        Currency("NOK", 2, "Norwegian Krone"),
        Currency("DKK", 2, "Danish Krone"),
        Currency("HUF", 2, "Forint"),
        Currency("RON", 2, "Romanian Leu"),
        Currency("BGN", 2, "Bulgarian Lev"),
        Currency("TRY", 2, "Turkish Lira"),
        Currency("UAH", 2, "Hryvnia"),
        Currency("BYN", 2, "Belarusian Ruble"),
        Currency("KZT", 2, "Tenge"),
        Currency("GEL", 2, "Lari"),
        Currency("AMD", 2, "Armenian Dram"),
        Currency("AZN", 2, "Azerbaijan Manat"),
        Currency("CNY", 2, "Yuan Renminbi"),
        Currency("CAD", 2, "Canadian Dollar"),
        Currency("AUD", 2, "Australian Dollar"),
        Currency("BRL", 2, "Brazilian Real"),
        Currency("INR", 2, "Indian Rupee"),
        Currency("JPY", 0, "Yen"),
        Currency("KRW", 0, "Won"),
        Currency("ISK", 0, "Iceland Krona"),
        Currency("KWD", 3, "Kuwaiti Dinar"),
        Currency("BHD", 3, "Bahraini Dinar"),
        Currency("OMR", 3, "Rial Omani"),
        Currency("JOD", 3, "Jordanian Dinar"),
        Currency("TND", 3, "Tunisian Dinar"),
    )
}


def currency(code: str) -> Currency:
    try:
        return CURRENCIES[code]
    except KeyError:
        raise UnknownCurrency(
            f"Unknown currency {code!r}: use an ISO 4217 code the wallet keeps.", currency=code
        ) from None
