"""The bet file `bets-<id>.csv` (T-8.3): every coupon of a draw, enough to recompute every payout.

    coupon_id,currency,amount,amount_usd,m1,m2,m3,m4,m5,m6,m7,m8
    c-000001,EUR,1.50,1.62645,1:0|2:1,0:0,...

`amount` is in the coupon's currency; `amount_usd` is amount × the draw's fixed rate, exact; `mN` are the
options picked on match N joined by "|", in the draw's option order. No personal data.
"""

from __future__ import annotations

import csv
from collections.abc import Iterable
from typing import TextIO

from totalizator.domain import Coupon, CouponRejected, Draw
from totalizator.domain.coupon import (
    bet_count,
    check_minimum_stake,
    decode_match_picks,
    encode_match_picks,
)
from totalizator.domain.currency import format_minor
from totalizator.domain.draw import MATCH_COUNT
from totalizator.files.decimals import exact_decimal, parse_decimal, parse_minor
from totalizator.files.errors import PublishedFileError

HEADER = ("coupon_id", "currency", "amount", "amount_usd", *(f"m{no}" for no in range(1, MATCH_COUNT + 1)))
PICK_SEPARATOR = "|"


def bets_file_name(draw_id: str) -> str:
    return f"bets-{draw_id}.csv"


def write_bets(draw: Draw, coupons: Iterable[Coupon], out: TextIO) -> None:
    # Cells repeat a lot across a million coupons: format each distinct one once.
    pick_cells: list[dict[int, str]] = [{} for _ in draw.matches]
    amount_cells: dict[tuple[str, int], tuple[str, str]] = {}
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(HEADER)
    for coupon in coupons:
        amount_key = (coupon.currency, coupon.amount)
        if amount_key not in amount_cells:
            terms = draw.terms(coupon.currency)
            amount_cells[amount_key] = (
                format_minor(coupon.amount, terms.exponent),
                exact_decimal(terms.to_usd(coupon.amount), min_places=2),
            )
        for match, cells, mask in zip(draw.matches, pick_cells, coupon.picks, strict=True):
            if mask not in cells:
                cells[mask] = PICK_SEPARATOR.join(decode_match_picks(match, mask))
        writer.writerow(
            (
                coupon.coupon_id,
                coupon.currency,
                *amount_cells[amount_key],
                *(cells[mask] for cells, mask in zip(pick_cells, coupon.picks, strict=True)),
            )
        )


def read_bets(draw: Draw, source: TextIO) -> list[Coupon]:
    """The coupons of a bet file, checked against the draw: options offered, currencies accepted, minimum
    stakes met, `amount_usd` equal to amount × rate, coupon ids unique."""
    rows = csv.reader(source)
    if tuple(next(rows, ())) != HEADER:
        raise PublishedFileError(f"bet file: the header must be {','.join(HEADER)}")
    parser = _RowParser(draw)
    coupons = []
    seen: set[str] = set()
    for line_no, row in enumerate(rows, start=2):
        try:
            coupon = parser.coupon(row)
        except (ValueError, CouponRejected) as exc:
            detail = exc.message if isinstance(exc, CouponRejected) else str(exc)
            raise PublishedFileError(f"bet file line {line_no}: {detail}") from None
        if coupon.coupon_id in seen:
            raise PublishedFileError(f"bet file line {line_no}: coupon {coupon.coupon_id} listed twice")
        seen.add(coupon.coupon_id)
        coupons.append(coupon)
    return coupons


class _RowParser:
    """Parses rows, checking each distinct amount and pick cell once (they repeat across coupons)."""

    def __init__(self, draw: Draw) -> None:
        self._draw = draw
        self._amounts: dict[tuple[str, str, str], int] = {}
        self._masks: list[dict[str, int]] = [{} for _ in draw.matches]

    def coupon(self, row: list[str]) -> Coupon:
        if len(row) != len(HEADER):
            raise ValueError(f"expected {len(HEADER)} fields, got {len(row)}")
        coupon_id, currency, amount_text, usd_text, *cells = row
        amount_key = (currency, amount_text, usd_text)
        amount = self._amounts.get(amount_key)
        if amount is None:
            amount = self._amounts[amount_key] = self._amount(currency, amount_text, usd_text)
        picks = tuple(
            masks[cell] if cell in masks else self._mask(match_index, cell)
            for match_index, (masks, cell) in enumerate(zip(self._masks, cells, strict=True))
        )
        check_minimum_stake(self._draw, currency, amount, bet_count(picks))
        return Coupon(coupon_id=coupon_id, currency=currency, amount=amount, picks=picks)

    def _amount(self, currency: str, amount_text: str, usd_text: str) -> int:
        if not self._draw.accepts(currency):
            raise ValueError(f"currency {currency!r} is not accepted in draw {self._draw.draw_id}")
        terms = self._draw.terms(currency)
        amount = parse_minor(amount_text, terms.exponent)
        if parse_decimal(usd_text) != terms.to_usd(amount):
            raise ValueError(f"amount_usd {usd_text} is not {amount_text} {currency} at the draw's rate")
        return amount

    def _mask(self, match_index: int, cell: str) -> int:
        mask = self._masks[match_index][cell] = encode_match_picks(
            self._draw.matches[match_index], cell.split(PICK_SEPARATOR)
        )
        return mask
