"""Bet intake through the API, paid through the real wallet (T-1.4, T-2.4, T-2.5, T-5.5, idempotency)."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import date, timedelta

from totalizator.service.wallet import Stake, WalletPort, WalletRefused, WalletUnavailable
from totalizator_harness import CLOSE_AT, NOW, Platform, PlatformFactory, picks


async def test_t2_4_a_coupon_holds_the_product_of_its_picks_and_its_stake_moves_to_the_pool(
    platform: Platform,
) -> None:
    await platform.open_draw()
    await platform.fund("p1", 10_000)
    response = await platform.coupon("p1", picks(["1:0", "2:1"], ["0:0", "1:1", "2:2"]), 600)
    assert response.status_code == 201, response.text
    coupon = response.json()
    assert coupon["bets"] == 6 and coupon["status"] == "accepted" and coupon["amount_text"] == "6.00"
    assert coupon["picks"][1] == ["0:0", "1:1", "2:2"]  # in the match's option order
    assert await platform.balance("p1") == 9_400
    assert await platform.pools() == {"USD": 600}
    fetched = await platform.staff("GET", f"/coupons/{coupon['coupon_id']}")
    assert fetched.json() == coupon
    mine = (await platform.staff("GET", "/players/p1/coupons")).json()
    assert [c["coupon_id"] for c in mine] == [coupon["coupon_id"]]


async def test_a_retried_coupon_is_charged_once_and_a_reused_key_is_refused(platform: Platform) -> None:
    await platform.open_draw()
    await platform.fund("p1", 1_000)
    first = await platform.coupon("p1", picks("1:0"), 100, key="k-1")
    again = await platform.coupon("p1", picks("1:0"), 100, key="k-1")
    assert first.status_code == 201 and again.status_code == 200
    assert again.headers["idempotent-replayed"] == "true" and again.json() == first.json()
    other = await platform.coupon("p1", picks("2:0"), 100, key="k-1")
    assert other.status_code == 409 and other.json()["code"] == "idempotency_key_reused"
    assert await platform.balance("p1") == 900
    # Another player may use the same key: keys are the player's own.
    await platform.fund("p2", 1_000)
    assert (await platform.coupon("p2", picks("1:0"), 100, key="k-1")).status_code == 201


async def test_t2_5_a_coupon_after_the_closing_time_is_refused_and_nothing_is_charged(platform: Platform) -> None:
    await platform.open_draw()
    await platform.fund("p1", 1_000)
    platform.clock.set(CLOSE_AT)  # the clock has not closed the draw yet: the closing time alone refuses it
    late = await platform.coupon("p1", picks("1:0"), 100)
    assert late.status_code == 409 and late.json()["code"] == "betting_closed"
    await platform.close()
    closed = await platform.coupon("p1", picks("1:0"), 100)
    assert closed.status_code == 409 and closed.json()["code"] == "betting_closed"
    assert await platform.balance("p1") == 1_000


async def test_t2_4_t1_4_coupons_below_the_minimum_in_a_foreign_currency_or_from_minors_are_refused(
    platform: Platform,
) -> None:
    await platform.open_draw()
    await platform.fund("p1", 10_000)
    six_bets = picks(["1:0", "2:0"], ["0:0", "1:1", "2:2"])
    below = await platform.coupon("p1", six_bets, 59)  # 6 bets × 0.10 = 0.60
    assert below.status_code == 422 and below.json()["code"] == "below_minimum_stake"
    assert (await platform.coupon("p1", six_bets, 60)).status_code == 201
    foreign = await platform.coupon("p1", picks("1:0"), 100, currency="GBP")
    assert foreign.status_code == 422 and foreign.json()["code"] == "currency_not_accepted"
    eighteen_tomorrow = date(NOW.year - 18, NOW.month, NOW.day) + timedelta(days=1)
    minor = await platform.coupon("p1", picks("1:0"), 100, birth_date=eighteen_tomorrow)
    assert minor.status_code == 403 and minor.json()["code"] == "underage_player"
    unknown = await platform.coupon("p1", picks("9:9"), 100)
    assert unknown.status_code == 422 and unknown.json()["code"] == "option_not_offered"
    assert await platform.balance("p1") == 9_940


async def test_t5_5_with_three_void_matches_the_draw_takes_no_more_coupons(platform: Platform) -> None:
    await platform.open_draw()
    await platform.fund("p1", 1_000)
    for no in (1, 2, 3):
        voided = await platform.staff("POST", f"/draws/2030-23/matches/{no}/void", {"reason": "postponed"})
        assert voided.status_code == 200
    assert voided.json()["playable"] is False
    refused = await platform.coupon("p1", picks("1:0"), 100)
    assert refused.status_code == 409 and refused.json()["code"] == "draw_not_playable"
    assert await platform.balance("p1") == 1_000


async def test_the_wallets_refusal_reaches_the_player_and_the_coupon_never_counts(platform: Platform) -> None:
    await platform.open_draw()
    await platform.fund("p1", 50)
    broke = await platform.coupon("p1", picks("1:0"), 100, key="k-broke")
    assert broke.status_code == 409 and broke.json()["code"] == "insufficient_funds"
    replay = await platform.coupon("p1", picks("1:0"), 100, key="k-broke")
    assert replay.status_code == 409 and replay.json()["code"] == "insufficient_funds"
    no_account = await platform.coupon("p1", picks("1:0"), 100, currency="EUR")
    assert no_account.status_code == 404 and no_account.json()["code"] == "unknown_account"
    await platform.close()
    assert (await platform.http.get("/v1/draws/2030-23")).json()["final"]["coupons"] == 0


class LosesAnswers:
    """The wallet does the work but the answer is lost, `times` times (a timeout after the commit)."""

    def __init__(self, wallet: WalletPort, times: int) -> None:
        self.wallet = wallet
        self.times = times

    async def stakes(self, draw_id: str, stakes: Sequence[Stake]) -> list[int | WalletRefused]:
        """A lost answer loses the answers of every stake of its call, counted per stake."""
        answers = await self.wallet.stakes(draw_id, stakes)
        if self.times:
            self.times = max(0, self.times - len(stakes))
            raise WalletUnavailable("answer lost")
        return answers


async def test_a_lost_wallet_answer_leaves_the_coupon_pending_and_a_retry_charges_it_once(
    start_platform: PlatformFactory,
) -> None:
    async with start_platform(wrap_wallet=lambda wallet: LosesAnswers(wallet, 1)) as platform:
        await platform.open_draw()
        await platform.fund("p1", 1_000)
        lost = await platform.coupon("p1", picks("1:0"), 100, key="k-lost")
        assert lost.status_code == 503 and lost.json()["code"] == "payment_pending"
        await platform.close()  # the clock retries the pending stake before the count is final
        retried = await platform.coupon("p1", picks("1:0"), 100, key="k-lost")
        assert retried.status_code == 200 and retried.json()["status"] == "accepted"
        assert await platform.balance("p1") == 900
        assert (await platform.http.get("/v1/draws/2030-23")).json()["final"]["coupons"] == 1
