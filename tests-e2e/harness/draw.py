"""A totalizator draw from announcement to payouts, driven through the gateway: staff prepare and announce it,
bettors place coupons, bets close on the clock, staff enter the eight scores and settle; the totalizator pays the
winners through the wallet.

Coupons and scores come from the run's seed, from a handful of common scores, so that some coupons win and most
categories have winners (T-3)."""

from __future__ import annotations

import asyncio
import random
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any

from harness.cast import CURRENCY
from harness.client import ApiError, Session, new_key

MATCHES = 8
SCORES = ((0, 0), (1, 0), (0, 1), (1, 1), (2, 1), (1, 2))
MIN_STAKE = "0.10"
MIN_STAKE_CENTS = 10
COUPONS_PER_BETTOR = 2
SETTLED = frozenset({"settled"})


def label(score: tuple[int, int]) -> str:
    return f"{score[0]}:{score[1]}"


@dataclass(frozen=True)
class Coupon:
    amount: int
    picks: tuple[tuple[str, ...], ...]


@dataclass(frozen=True)
class DrawPlan:
    """Everything the seed decides: each bettor's coupons and the eight final scores."""

    coupons: tuple[tuple[Coupon, ...], ...]  # per bettor
    scores: tuple[tuple[int, int], ...]

    @classmethod
    def draw(cls, rng: random.Random, bettors: int) -> DrawPlan:
        def coupon() -> Coupon:
            picks = tuple(
                tuple(sorted(label(s) for s in rng.sample(SCORES, rng.choice((1, 1, 2))))) for _ in range(MATCHES)
            )
            bets = 1
            for options in picks:
                bets *= len(options)
            return Coupon(amount=MIN_STAKE_CENTS * bets * rng.randint(1, 5), picks=picks)

        coupons = tuple(tuple(coupon() for _ in range(COUPONS_PER_BETTOR)) for _ in range(bettors))
        return cls(coupons=coupons, scores=tuple(rng.choice(SCORES) for _ in range(MATCHES)))


class DrawDriver:
    def __init__(self, staff: Session, draw_id: str, plan: DrawPlan) -> None:
        self.staff = staff
        self.draw_id = draw_id
        self.plan = plan
        self.coupon_ids: list[list[str]] = []

    async def announce(self, close_at: datetime) -> None:
        kickoff = (close_at + timedelta(minutes=5)).isoformat()
        matches = [{"home": f"Home {n}", "away": f"Away {n}", "kickoff": kickoff} for n in range(1, MATCHES + 1)]
        body = {
            "draw_id": self.draw_id,
            "close_at": close_at.isoformat(),
            "matches": matches,
            "currencies": [{"currency": CURRENCY, "min_stake": MIN_STAKE, "usd_rate": "1.0843"}],
        }
        await self.staff.call("POST", "/admin/draws", json=body)
        await self.staff.call("POST", f"/admin/draws/{self.draw_id}/announce")

    async def place_coupons(self, bettors: list[Session]) -> None:
        """Each bettor's coupons, one key each: a retry after a lost answer gets the first coupon back."""

        async def of(bettor: Session, coupons: tuple[Coupon, ...]) -> list[str]:
            placed = []
            for coupon in coupons:
                body = {"currency": CURRENCY, "amount": coupon.amount, "picks": [list(p) for p in coupon.picks]}
                answer = await bettor.call("POST", f"/draws/{self.draw_id}/coupons", json=body, key=new_key())
                placed.append(answer["coupon_id"])
            return placed

        self.coupon_ids = list(
            await asyncio.gather(*(of(b, c) for b, c in zip(bettors, self.plan.coupons, strict=True)))
        )

    async def settle_after_close(self, timeout: float) -> None:
        """Wait for bets to close and be counted, enter the scores, settle; then wait until every payout is made."""
        await self._until(lambda draw: draw["status"] == "closed" and draw["final"] is not None, timeout)
        for no, (home, away) in enumerate(self.plan.scores, start=1):
            await self.staff.call(
                "PUT", f"/admin/draws/{self.draw_id}/matches/{no}/result", json={"home": home, "away": away}
            )
        try:
            await self.staff.call("POST", f"/admin/draws/{self.draw_id}/settle")
        except ApiError as error:
            if error.status < 500:
                raise
            # The wallet was away: the draw stays `settling` and the totalizator's clock resumes the transfers.
        await self._until(lambda draw: draw["status"] in SETTLED and not draw["transfers"]["pending"], timeout)

    async def view(self) -> dict[str, Any]:
        found: dict[str, Any] = await self.staff.call("GET", f"/admin/draws/{self.draw_id}")
        return found

    async def _until(self, done: Any, timeout: float) -> None:
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while not done(draw := await self.view()):
            if loop.time() > deadline:
                raise AssertionError(f"draw {self.draw_id} stuck: {draw['status']}, transfers {draw.get('transfers')}")
            await asyncio.sleep(0.5)


def close_time(seconds_from_now: float) -> datetime:
    return datetime.now(UTC) + timedelta(seconds=seconds_from_now)
