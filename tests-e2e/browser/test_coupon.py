"""T-2.4 in the browser: a new player fills a coupon with a system bet (several results on some matches), sees
its bets and cost, places it, and finds the stake in their statement."""

from __future__ import annotations

import uuid
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from browser_support import DESKTOP, PHONE, Api, sign_up_in_browser

pytestmark = pytest.mark.e2e


def open_draw(api: Api) -> str:
    """As staff: a draw of 8 matches in EUR (minimum stake 0.10), open for bets for an hour."""
    draw_id = f"e2e-{uuid.uuid4().hex[:8]}"
    close_at = datetime.now(UTC) + timedelta(hours=1)
    matches = [
        {"home": f"Home {n}", "away": f"Away {n}", "kickoff": (close_at + timedelta(hours=1)).isoformat()}
        for n in range(1, 9)
    ]
    api.call(
        "POST",
        "/admin/draws",
        json={
            "draw_id": draw_id,
            "close_at": close_at.isoformat(),
            "matches": matches,
            "currencies": [{"currency": "EUR", "min_stake": "0.10", "usd_rate": "1.0843"}],
        },
    )
    api.call("POST", f"/admin/draws/{draw_id}/announce")
    return draw_id


@pytest.mark.parametrize("viewport", [PHONE, DESKTOP], ids=["phone", "desktop"])
def test_t2_4_a_system_coupon_is_placed_and_shows_in_the_statement(
    platform_url: str, api: Api, browser: Any, screenshot: Any, viewport: dict[str, int]
) -> None:
    draw_id = open_draw(api)
    page = browser.new_page(viewport=viewport)
    try:
        sign_up_in_browser(page, platform_url, f"Bettor{uuid.uuid4().hex[:6]}")
        page.goto(f"{platform_url}/#/draw/{draw_id}")
        page.wait_for_selector("fieldset.match[data-match='8']")
        # Two results on matches 1 and 2, one on the others: 2 × 2 = 4 bets (T-2.4).
        for match, options in {1: ["1:0", "2:1"], 2: ["0:0", "1:1"]}.items():
            for option in options:
                page.click(f"fieldset[data-match='{match}'] button[data-option='{option}']")
        for match in range(3, 9):
            page.click(f"fieldset[data-match='{match}'] button[data-option='1:1']")
        summary = page.locator(".coupon-summary")
        # Issue 15 (6): while picking at the top of the coupon, its cost and the button stay on screen.
        page.evaluate("window.scrollTo(0, document.querySelector(\"fieldset[data-match='1']\").offsetTop)")
        for part in (summary.locator(".cost"), page.locator("button.place")):
            box = part.bounding_box()
            assert box and box["y"] >= 0 and box["y"] + box["height"] <= viewport["height"], box
        assert "4" in summary.locator(".cost").inner_text()
        assert page.locator("[data-cost]").get_attribute("data-cost") == "40"  # 4 bets × 10 cents
        assert "0.40" in summary.inner_text()
        screenshot(page, "coupon")
        page.click("button.place")
        # Each half of the notice counts and writes the cost its own language's way.
        placed = page.locator("#toasts .toast", has_text="placed").inner_text()
        page.wait_for_selector("tr[data-coupon]")
        assert "placed: 4 bets, €0.40." in placed and "giocata: 4 colonne, 0,40\xa0€." in placed
        page.wait_for_selector(".live:has-text('1 coupon ·')")  # the live statistics: one coupon, in words
        row = page.locator("tr[data-coupon]").first.inner_text()
        assert "€0.40" in row and "1:0/2:1" in row
        page.goto(f"{platform_url}/#/account")
        stake = page.locator("tr[data-kind='stake']").first
        stake.wait_for()
        assert "−€0.40" in stake.inner_text() and draw_id in stake.inner_text()
        page.wait_for_selector("tr[data-coupon]")
        assert "€0.40" in page.locator("tr[data-coupon]").first.inner_text()  # the account's coupons, as money
        assert page.locator("tr[data-kind='deposit']").count() == 1  # the demo's welcome credit
        # Issue 15 (6, 7): no sideways scrolling on a phone; the statistics count in words, not "1 coupons".
        assert page.evaluate("document.documentElement.scrollWidth") <= viewport["width"]
        for table in page.locator("table.grid").all():
            box = table.bounding_box()
            assert box and box["x"] + box["width"] <= viewport["width"], box
        screenshot(page, "statement")
    finally:
        page.close()
