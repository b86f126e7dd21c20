"""Currencies and decimal amounts: minor units per ISO 4217 currency, exact decimal notation.

Stakes and payouts are integer counts of a currency's minor unit (T-6.3 floors payouts to it); turning an
amount into US dollars (T-2.3) needs to know how many minor units make one major unit. Rates and jackpots
are exact decimals, so every dollar amount derived from them has a finite decimal expansion.
"""

from __future__ import annotations

from fractions import Fraction

# ISO 4217 currencies whose minor unit is not a hundredth.
_EXPONENT_EXCEPTIONS: dict[str, int] = {
    **dict.fromkeys(
        [
            "BIF",
            "CLP",
            "DJF",
            "GNF",
            "ISK",
            "JPY",
            "KMF",
            "KRW",
            "PYG",
            "RWF",
            "UGX",
            "UYI",
            "VND",
            "VUV",
            "XAF",
            "XOF",
            "XPF",
        ],
        0,
    ),
    **dict.fromkeys(["BHD", "IQD", "JOD", "KWD", "LYD", "OMR", "TND"], 3),
    **dict.fromkeys(["CLF", "UYW"], 4),
}

# Every other active ISO 4217 currency: two decimal places.
_TWO_DECIMAL_CURRENCIES = frozenset(
    [
        "AED",
        "AFN",
        "ALL",
        "AMD",
        "ANG",
        "AOA",
        "ARS",
        "AUD",
        "AWG",
        "AZN",
        "BAM",
        "BBD",
        "BDT",
        "BGN",
        "BMD",
        "BND",
        "BOB",
        "BOV",
        "BRL",
        "BSD",
        "BTN",
        "BWP",
        "BYN",
        "BZD",
        "CAD",
        "CDF",
        "CHE",
        "CHF",
        "CHW",
        "CNY",
        "COP",
        "COU",
        "CRC",
        "CUC",
        "CUP",
        "CVE",
        "CZK",
        "DKK",
        "DOP",
        "DZD",
        "EGP",
        "ERN",
        "ETB",
        "EUR",
        "FJD",
        "FKP",
        "GBP",
        "GEL",
        "GHS",
        "GIP",
        "GMD",
        "GTQ",
        "GYD",
        "HKD",
        "HNL",
        "HTG",
        "HUF",
        "IDR",
        "ILS",
        "INR",
        "IRR",
        "JMD",
        "KES",
        "KGS",
        "KHR",
        "KPW",
        "KYD",
        "KZT",
        "LAK",
        "LBP",
        "LKR",
        "LRD",
        "LSL",
        "MAD",
        "MDL",
        "MGA",
        "MKD",
        "MMK",
        "MNT",
        "MOP",
        "MRU",
        "MUR",
        "MVR",
        "MWK",
        "MXN",
        "MXV",
        "MYR",
        "MZN",
        "NAD",
        "NGN",
        "NIO",
        "NOK",
        "NPR",
        "NZD",
        "PAB",
        "PEN",
        "PGK",
        "PHP",
        "PKR",
        "PLN",
        "QAR",
        "RON",
        "RSD",
        "RUB",
        "SAR",
        "SBD",
        "SCR",
        "SDG",
        "SEK",
        "SGD",
        "SHP",
        "SLE",
        "SLL",
        "SOS",
        "SRD",
        "SSP",
        "STN",
        "SVC",
        "SYP",
        "SZL",
        "THB",
        "TJS",
        "TMT",
        "TOP",
        "TRY",
        "TTD",
        "TWD",
        "TZS",
        "UAH",
        "USD",
        "USN",
        "UYU",
        "UZS",
        "VED",
        "VES",
        "WST",
        "XCD",
        "XCG",
        "YER",
        "ZAR",
        "ZMW",
        "ZWG",
        "ZWL",
    ]
)


def minor_unit_exponent(currency: str) -> int:
    """Decimal places of `currency`'s minor unit (2 for USD cents, 0 for JPY, 3 for KWD).

    Raises KeyError for a code that is not an active ISO 4217 currency.
    """
    if currency in _EXPONENT_EXCEPTIONS:
        return _EXPONENT_EXCEPTIONS[currency]
    if currency in _TWO_DECIMAL_CURRENCIES:
        return 2
    raise KeyError(f"{currency!r} is not an ISO 4217 currency code")


def decimal_places(value: Fraction) -> int | None:
    """Places of a rational's exact decimal expansion (1/8 -> 3), None when it never ends (1/3)."""
    rest, places = value.denominator, 0
    for prime in (2, 5):
        power = 0
        while rest % prime == 0:
            rest //= prime
            power += 1
        places = max(places, power)
    return places if rest == 1 else None


def format_minor(amount: int, exponent: int) -> str:
    """A count of minor units as a decimal string with exactly `exponent` places: 1234, 2 -> "12.34"."""
    sign = "-" if amount < 0 else ""
    whole, fraction = divmod(abs(amount), 10**exponent)
    return f"{sign}{whole}.{fraction:0{exponent}d}" if exponent else f"{sign}{whole}"
