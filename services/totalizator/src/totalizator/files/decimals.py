"""Decimal strings of the published files and reports, converted exactly to and from Fractions.

Files carry amounts as plain decimal strings ("1.0843", "12.50"): no exponent, no float on the way.
"""

from __future__ import annotations

import re
from fractions import Fraction

from totalizator.domain.currency import decimal_places, format_minor

_DECIMAL = re.compile(r"-?[0-9]+(\.[0-9]+)?")


def parse_decimal(text: str) -> Fraction:
    """The exact value of a plain decimal string; ValueError for anything else (exponents, NaN, blanks)."""
    if not _DECIMAL.fullmatch(text):
        raise ValueError(f"not a plain decimal number: {text!r}")
    return Fraction(text)


def parse_minor(text: str, exponent: int) -> int:
    """A non-negative decimal amount as minor units: "12.5" with 2 decimals -> 1250; ValueError if finer."""
    value = parse_decimal(text) * 10**exponent
    if value < 0 or value.denominator != 1:
        raise ValueError(f"{text!r} is not a non-negative amount in units of 10^-{exponent}")
    return value.numerator


def exact_decimal(value: Fraction, min_places: int = 0) -> str:
    """A terminating rational as its exact decimal string, with at least `min_places` decimals.

    ValueError when the value has no finite decimal expansion (its denominator has a prime besides 2, 5).
    """
    places = decimal_places(value)
    if places is None:
        raise ValueError(f"{value} has no finite decimal expansion")
    places = max(places, min_places)
    return format_minor(value.numerator * 10**places // value.denominator, places)


def rounded_decimal(value: Fraction, places: int) -> str:
    """`value` rounded half to even to `places` decimals (for display of non-terminating amounts)."""
    return format_minor(round(value * 10**places), places)
