"""Prize pool (P-8.2), guarantee overlay (P-8.3) and tax base (P-8.7)."""

import pytest
from tournament_director.domain.entries import Entry, EntryKind, PaymentForm, Price
from tournament_director.domain.prize_pool import collected_prize_parts_cents, fund_prize_pool
from tournament_director.domain.tax import assess_tax, tax_base_cents, tax_on

NINETY_PLUS_TEN = Price(prize_part_cents=9000, fee_cents=1000)


def _entries() -> list[Entry]:
    return [
        Entry(EntryKind.BUY_IN, NINETY_PLUS_TEN),
        Entry(EntryKind.SATELLITE, NINETY_PLUS_TEN, PaymentForm.TICKET),
        Entry(EntryKind.REBUY, Price(prize_part_cents=450, fee_cents=50)),
        Entry(EntryKind.ADDON, Price(prize_part_cents=900, fee_cents=100)),
    ]


def test_p8_2_pool_is_the_sum_of_prize_parts_of_every_entry_kind() -> None:
    assert collected_prize_parts_cents(_entries()) == 9000 + 9000 + 450 + 900


def test_p8_3_guarantee_above_collected_pays_an_overlay() -> None:
    funding = fund_prize_pool(_entries(), guarantee_cents=50_000)
    assert (funding.pool_cents, funding.overlay_cents) == (50_000, 50_000 - 19_350)


def test_p8_3_no_overlay_when_collected_beats_the_guarantee() -> None:
    funding = fund_prize_pool(_entries(), guarantee_cents=10_000)
    assert (funding.pool_cents, funding.overlay_cents) == (19_350, 0)


def test_p8_7_tax_base_counts_every_entry_kind_at_full_price() -> None:
    sponsored = Entry(EntryKind.SPONSORED, Price(prize_part_cents=40, fee_cents=10))
    assert tax_base_cents([*_entries(), sponsored]) == 10_000 + 10_000 + 500 + 1_000 + 50


def test_p8_7_tax_at_a_configured_rate_rounds_half_up() -> None:
    assessment = assess_tax(_entries(), rate_bps=300)
    assert (assessment.base_cents, assessment.tax_cents) == (21_500, 645)
    # 3% of 21,550 cents = 646.5 → 647.
    assert tax_on(21_550, 300) == 647
    assert tax_on(1, 4999) == 0
    assert tax_on(1, 5000) == 1


def test_negative_guarantee_or_rate_is_refused() -> None:
    with pytest.raises(ValueError):
        fund_prize_pool([], guarantee_cents=-1)
    with pytest.raises(ValueError):
        tax_on(100, -1)
