"""The draw as announced (T-2.1–T-2.3), then completed with results, actual kick-offs and void decisions."""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from datetime import datetime
from fractions import Fraction

from totalizator.domain.currency import decimal_places, minor_unit_exponent
from totalizator.domain.errors import InvalidDraw
from totalizator.domain.options import check_options, option_for_score
from totalizator.domain.prizes import MAX_VOID_MATCHES

MATCH_COUNT = 8  # T-2.1


def _require_decimal(value: Fraction, what: str) -> None:
    """Rates and jackpots are announced, and published (T-8.2), as exact decimals."""
    if decimal_places(value) is None:
        raise InvalidDraw(f"{what} must be an exact decimal, got {value}")


def _require_aware(moment: datetime, what: str) -> None:
    if moment.tzinfo is None or moment.utcoffset() is None:
        raise InvalidDraw(f"{what} must be a timezone-aware datetime, got {moment!r}")


@dataclass(frozen=True, slots=True)
class CurrencyTerms:
    """A currency the draw accepts, on terms fixed at announcement until closing (T-2.2, T-2.3).

    `min_stake` is in the currency's minor units; `usd_rate` is the exact decimal number of US dollars one
    major unit is worth (1 for USD). A stake of `amount` minor units counts in the pool as exactly
    amount × usd_rate / 10**exponent dollars — no rounding anywhere.
    """

    currency: str
    min_stake: int
    usd_rate: Fraction
    exponent: int = field(init=False, compare=False)

    def __post_init__(self) -> None:
        try:
            object.__setattr__(self, "exponent", minor_unit_exponent(self.currency))
        except KeyError as exc:
            raise InvalidDraw(str(exc.args[0])) from None
        if self.min_stake <= 0:
            raise InvalidDraw(f"{self.currency}: the minimum stake must be positive, got {self.min_stake}")
        if self.usd_rate <= 0:
            raise InvalidDraw(f"{self.currency}: the USD rate must be positive, got {self.usd_rate}")
        _require_decimal(self.usd_rate, f"{self.currency}: the USD rate")
        if self.currency == "USD" and self.usd_rate != 1:
            raise InvalidDraw(f"the USD rate of USD is 1, got {self.usd_rate}")

    @property
    def usd_per_minor_unit(self) -> Fraction:
        return self.usd_rate / 10**self.exponent

    def to_usd(self, amount: int) -> Fraction:
        """Exact dollar value of `amount` minor units of this currency."""
        return amount * self.usd_per_minor_unit


@dataclass(frozen=True, slots=True)
class Match:
    """One of the draw's matches and the results offered on it (T-2.1).

    `kickoff` is the scheduled time, replaced by the actual kick-off once known: a match that kicked off
    before bet closing is void (T-5.1). `declared_void` records a void decision under the bookmaker's rules
    (the service keeps the reason, T-1.5). `result` is the option the regular-time score maps to.
    """

    no: int
    home: str
    away: str
    kickoff: datetime
    options: tuple[str, ...]
    result: str | None = None
    declared_void: bool = False
    _index: dict[str, int] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        _require_aware(self.kickoff, f"match {self.no} kick-off")
        check_options(self.options)
        object.__setattr__(self, "_index", {label: i for i, label in enumerate(self.options)})
        if self.result is not None and self.result not in self._index:
            raise InvalidDraw(f"match {self.no}: result {self.result!r} is not one of its options")

    def option_index(self, label: str) -> int:
        """Position of an offered option; KeyError when the option is not offered."""
        return self._index[label]

    def is_void(self, close_at: datetime) -> bool:
        """T-5.1: void by decision, or because it kicked off before bet closing."""
        return self.declared_void or self.kickoff < close_at


@dataclass(frozen=True, slots=True)
class Draw:
    """A draw of 8 matches, its bet-closing time, accepted currencies and jackpot (T-2.1, T-2.2, T-4).

    The jackpot played is what earlier draws carried over (T-4.1) plus what the organizer adds from its
    own funds (T-4.4); both in exact US dollars.
    """

    draw_id: str
    close_at: datetime
    matches: tuple[Match, ...]
    currencies: tuple[CurrencyTerms, ...]
    jackpot_carried_usd: Fraction = Fraction(0)
    jackpot_topup_usd: Fraction = Fraction(0)
    _terms: dict[str, CurrencyTerms] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        if not self.draw_id:
            raise InvalidDraw("a draw needs an id")
        _require_aware(self.close_at, "the bet-closing time")
        numbers = [match.no for match in self.matches]
        if numbers != list(range(1, MATCH_COUNT + 1)):
            raise InvalidDraw(f"a draw has matches numbered 1..{MATCH_COUNT} in order, got {numbers}")
        terms = {t.currency: t for t in self.currencies}
        if len(terms) != len(self.currencies) or not terms:
            raise InvalidDraw("a draw accepts one or more currencies, each listed once")
        for amount, what in [(self.jackpot_carried_usd, "the jackpot carried"), (self.jackpot_topup_usd, "the top-up")]:
            if amount < 0:
                raise InvalidDraw(f"{what} cannot be negative")
            _require_decimal(amount, what)
        object.__setattr__(self, "_terms", terms)

    @property
    def jackpot_usd(self) -> Fraction:
        """The jackpot announced and played in this draw (T-4.1 carried + T-4.4 organizer top-up)."""
        return self.jackpot_carried_usd + self.jackpot_topup_usd

    def accepts(self, currency: str) -> bool:
        return currency in self._terms

    def terms(self, currency: str) -> CurrencyTerms:
        """Terms of an accepted currency; KeyError for a currency the draw does not accept."""
        return self._terms[currency]

    def match(self, no: int) -> Match:
        if not 1 <= no <= MATCH_COUNT:
            raise KeyError(f"no match {no} in a draw of {MATCH_COUNT}")
        return self.matches[no - 1]

    @property
    def void_matches(self) -> tuple[Match, ...]:
        return tuple(match for match in self.matches if match.is_void(self.close_at))

    @property
    def is_playable(self) -> bool:
        """T-5.5: with three or more void matches the draw is not played (every bet is refunded)."""
        return len(self.void_matches) <= MAX_VOID_MATCHES

    def with_result(self, no: int, option: str) -> Draw:
        return self._replace_match(no, result=option)

    def with_score(self, no: int, home: int, away: int) -> Draw:
        """Record a regular-time score; it is stored as the option it maps to."""
        return self.with_result(no, option_for_score(self.match(no).options, home, away))

    def with_void(self, no: int) -> Draw:
        """Record a void decision under the bookmaker's rules (T-5.1)."""
        return self._replace_match(no, declared_void=True)

    def with_kickoff(self, no: int, kickoff: datetime) -> Draw:
        """Record the actual kick-off; before bet closing it makes the match void (T-5.1)."""
        return self._replace_match(no, kickoff=kickoff)

    def _replace_match(self, no: int, **changes: object) -> Draw:
        updated = dataclasses.replace(self.match(no), **changes)  # type: ignore[arg-type]
        matches = tuple(updated if match.no == no else match for match in self.matches)
        return dataclasses.replace(self, matches=matches)
