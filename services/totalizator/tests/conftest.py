"""Builders for the totalizator tests: a standard draw whose matches all end 1:0, and coupons by labels; and
the `platform` fixture of the service tests (totalizator_harness.py)."""

from __future__ import annotations

import sys
from collections.abc import AsyncIterator, Sequence
from contextlib import AbstractAsyncContextManager
from datetime import UTC, datetime, timedelta
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest

# The service tests share a harness (totalizator_harness.py): the totalizator and the real wallet, in-process.
sys.path.insert(0, str(Path(__file__).parent))

from platform_kit.testing import MigratedSqlite
from totalizator.app import MIGRATIONS as TOTALIZATOR_MIGRATIONS
from totalizator.domain import MATCH_COUNT, Coupon, CurrencyTerms, Draw, Match, standard_options
from totalizator.domain.coupon import encode_picks
from totalizator.domain.currency import minor_unit_exponent
from totalizator.files.decimals import parse_minor
from totalizator_harness import Platform, PlatformFactory, running
from wallet.app import MIGRATIONS as WALLET_MIGRATIONS

CLOSE_AT = datetime(2030, 6, 10, 20, 0, tzinfo=UTC)
RIGHT = "1:0"  # every match of the kit's draws ends 1:0 ...
WRONG = "0:0"  # ... so this pick is always wrong
USD = CurrencyTerms("USD", 10, Fraction(1))
EUR = CurrencyTerms("EUR", 10, Fraction("1.0843"))
JPY = CurrencyTerms("JPY", 15, Fraction("0.0067"))


class Kit:
    """Draws and coupons for rule tests, in the units a reader of the spec thinks in."""

    close_at = CLOSE_AT

    def draw(
        self,
        *,
        jackpot: str = "0",
        topup: str = "0",
        void: Sequence[int] = (),
        currencies: Sequence[CurrencyTerms] = (USD, EUR, JPY),
        draw_id: str = "1",
        result: str | None = RIGHT,
    ) -> Draw:
        """A draw of 8 matches, all ending 1:0 (or not played yet), with the given matches void by decision."""
        matches = tuple(
            Match(
                no,
                f"Home {no}",
                f"Away {no}",
                CLOSE_AT + timedelta(hours=no),
                standard_options(),
                result=result,
                declared_void=no in void,
            )
            for no in range(1, MATCH_COUNT + 1)
        )
        return Draw(
            draw_id,
            CLOSE_AT,
            matches,
            tuple(currencies),
            jackpot_carried_usd=Fraction(jackpot),
            jackpot_topup_usd=Fraction(topup),
        )

    def single(self, draw: Draw, coupon_id: str, amount: str, *, right: int, currency: str = "USD") -> Coupon:
        """A one-line coupon right on the first `right` valid matches and wrong on the others."""
        picks: list[list[str]] = []
        to_get_right = right
        for match in draw.matches:
            if to_get_right and not match.is_void(draw.close_at):
                picks.append([RIGHT])
                to_get_right -= 1
            else:
                picks.append([WRONG])
        assert not to_get_right, f"only {right - to_get_right} valid matches to get right"
        return self.coupon(draw, coupon_id, amount, picks, currency=currency)

    def coupon(
        self, draw: Draw, coupon_id: str, amount: str, picks: Sequence[Sequence[str]], *, currency: str = "USD"
    ) -> Coupon:
        """A coupon from option labels; `amount` is a decimal string in `currency` ("12.50")."""
        return Coupon(
            coupon_id, currency, parse_minor(amount, minor_unit_exponent(currency)), encode_picks(draw, picks)
        )


@pytest.fixture(scope="session")
def kit() -> Kit:
    return Kit()


@pytest.fixture
def start_platform(tmp_path: Path, migrated_sqlite: MigratedSqlite) -> PlatformFactory:
    """Starts the totalizator on SQLite with the real wallet (its own SQLite database), both in-process and on
    fresh copies of migrated databases; keyword arguments go to harness.running (e.g. `wrap_wallet` to inject
    faults)."""

    def start(**options: Any) -> AbstractAsyncContextManager[Platform]:
        totalizator = migrated_sqlite.copy(TOTALIZATOR_MIGRATIONS, tmp_path / "totalizator.db")
        wallet = migrated_sqlite.copy(WALLET_MIGRATIONS, tmp_path / "wallet.db")
        return running(totalizator, wallet, migrate=False, **options)

    return start


@pytest.fixture
async def platform(start_platform: PlatformFactory) -> AsyncIterator[Platform]:
    async with start_platform() as started:
        yield started
