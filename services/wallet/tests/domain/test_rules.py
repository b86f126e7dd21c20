"""Currencies, holds, idempotency fingerprints and the reconciliation report."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from decimal import Decimal

import pytest
from wallet.domain.currencies import currency
from wallet.domain.errors import HoldExpired, HoldNotPending, InvalidAmount, UnknownCurrency
from wallet.domain.holds import HoldStatus, amount_to_post, check_can_resolve
from wallet.domain.idempotency import fingerprint
from wallet.domain.reconciliation import AccountDrift, report

NOW = datetime(2025, 1, 1, tzinfo=UTC)


@pytest.mark.parametrize(("code", "units", "shown"), [("EUR", 2, "12.34"), ("JPY", 0, "1234"), ("KWD", 3, "1.234")])
def test_currencies_know_their_minor_units(code: str, units: int, shown: str) -> None:
    assert currency(code).minor_units == units
    assert currency(code).to_decimal(1234) == Decimal(shown)


def test_unknown_currency_is_refused() -> None:
    with pytest.raises(UnknownCurrency):
        currency("XXX")


def test_a_pending_hold_past_its_expiry_counts_as_expired() -> None:
    check_can_resolve(1, HoldStatus.PENDING, NOW + timedelta(seconds=1), NOW)
    with pytest.raises(HoldExpired):
        check_can_resolve(1, HoldStatus.PENDING, NOW, NOW)
    with pytest.raises(HoldNotPending):
        check_can_resolve(1, HoldStatus.VOIDED, NOW + timedelta(days=1), NOW)


def test_a_hold_posts_at_most_its_amount() -> None:
    assert amount_to_post(1, 500, None) == 500
    assert amount_to_post(1, 500, 200) == 200
    with pytest.raises(InvalidAmount):
        amount_to_post(1, 500, 501)


def test_fingerprint_ignores_key_order_but_not_values_or_path() -> None:
    base = fingerprint("POST", "/v1/x", {"a": 1, "b": 2})
    assert fingerprint("post", "/v1/x", {"b": 2, "a": 1}) == base
    assert fingerprint("POST", "/v1/x", {"a": 1, "b": 3}) != base
    assert fingerprint("POST", "/v1/y", {"a": 1, "b": 2}) != base


def test_reconciliation_report_fails_on_a_nonzero_sum_or_a_drifted_account() -> None:
    drift = AccountDrift("player:p1:EUR", 10, 9, 0, 0)
    result = report(NOW, [("EUR", 3, 0), ("USD", 2, 5), ("JPY", 1, 0)], [("JPY", drift)])
    assert not result.ok
    assert [(c.currency, c.ok) for c in result.currencies] == [("EUR", True), ("JPY", False), ("USD", False)]
    assert report(NOW, [("EUR", 3, 0)], []).ok
