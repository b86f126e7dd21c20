"""Player protection in the player's own client (issue 17), in real Chromium against the whole platform:

- on a desktop, the account page sets a reality check and a session limit, a daily deposit limit, then a higher
  one that waits for its cooling-off (shown with the date it applies from), and lists every change;
- on a phone, the same player signs in again; when the chosen interval comes round (the page's clock run ahead)
  the reality check shows the session's time and net result over the page; the player then excludes
  themselves, which takes two clicks and reads as in force, not reversible;
- a player holding accounts in euros and dollars sets each currency's limits in its own form.
"""

from __future__ import annotations

import uuid
from typing import Any

import pytest
from browser_support import DESKTOP, PASSWORD, PHONE, Api, sign_up_in_browser
from test_staff_console import log_in_player, player_over_the_api

pytestmark = pytest.mark.e2e


def open_protection(page: Any, base_url: str) -> Any:
    page.goto(f"{base_url}/#/account")
    panel = page.locator(".panel.protection")
    panel.locator(".deposit-limits table.limits").first.wait_for()
    return panel


def test_a_player_sets_limits_and_sees_the_reality_check_then_excludes_themselves(
    platform_url: str, browser: Any, screenshot: Any
) -> None:
    nickname = f"Careful{uuid.uuid4().hex[:6]}"
    desktop = browser.new_page(viewport=DESKTOP)
    try:
        sign_up_in_browser(desktop, platform_url, nickname)
        panel = open_protection(desktop, platform_url)
        panel.locator("input[name=reality_check_minutes]").fill("5")
        panel.locator("input[name=session_limit_minutes]").fill("120")
        panel.locator(".session-settings button[type=submit]").click()
        panel.locator(".history tr[data-setting='reality_check']").wait_for()
        assert panel.locator("input[name=reality_check_minutes]").input_value() == "5"

        # Out-of-range input: the API's refusal, named by field, not a silent failure.
        panel.locator("input[name=reality_check_minutes]").evaluate("(e) => { e.min = ''; e.max = ''; }")
        panel.locator("input[name=reality_check_minutes]").fill("2")
        panel.locator(".session-settings button[type=submit]").click()
        panel.locator(".session-settings .error:has-text('reality_check_minutes')").wait_for()

        # A first limit applies at once; a higher one waits for the cooling-off, shown with its date.
        panel.locator("input[name=day]").fill("50.00")
        panel.locator(".deposit-limits button[type=submit]").click()
        panel.locator(".limits tr[data-period='day'] .in-force:has-text('50.00')").wait_for()
        panel.locator("input[name=day]").fill("80")
        panel.locator(".deposit-limits button[type=submit]").click()
        pending = panel.locator(".limits tr[data-period='day'] .pending")
        pending.locator("text=80.00").wait_for()
        assert "50.00" in panel.locator(".limits tr[data-period='day'] .in-force").inner_text()
        assert "24" in panel.locator(".cooling-off").inner_text()
        panel.locator(".history tr[data-setting='deposit_limit']").nth(1).wait_for()
        assert panel.locator(".history tr[data-setting='session_limit']").count() == 1
        screenshot(desktop, "desktop")
    finally:
        desktop.close()

    phone = browser.new_page(viewport=PHONE)
    try:
        phone.clock.install()  # the page's own clock: run ahead to the reality check, not waited for
        phone.goto(f"{platform_url}/#/login")
        phone.fill("input[name=login]", nickname)
        phone.fill("input[name=password]", PASSWORD)
        phone.click("form button[type=submit]")
        phone.wait_for_url("**/#/lobby", timeout=90_000)
        panel = open_protection(phone, platform_url)
        panel.locator(".session-now .net").wait_for()
        phone.clock.run_for("06:00")
        check = phone.locator(".reality-check[role=alertdialog]")
        check.wait_for()
        assert check.locator(".duration").count() == 1
        assert check.locator(".net [data-net]").count() >= 1  # the net result of play, per currency
        screenshot(phone, "reality-check")
        check.locator("button.continue").click()
        check.wait_for(state="detached")

        panel.locator("select[name=term]").select_option("30_days")
        panel.locator("button.ask-exclusion").click()
        panel.locator("button.confirm-exclusion").click()
        panel.locator(".self-exclusion .in-force[data-term='30_days']").wait_for()
        panel.locator(".history tr[data-setting='self_exclusion']").wait_for()
        screenshot(phone, "self-excluded")
    finally:
        phone.close()


def test_a_player_sets_deposit_limits_in_each_currency_they_hold(
    platform_url: str, api: Api, browser: Any, screenshot: Any
) -> None:
    nickname = f"Twofold{uuid.uuid4().hex[:6]}"
    player, me = player_over_the_api(platform_url, nickname)  # euros: the demo's welcome credit
    player.http.close()
    api.call("POST", f"/players/{me}/accounts", json={"currency": "USD"})  # the concessionaire's cashier
    page = browser.new_page(viewport=PHONE)
    try:
        log_in_player(page, platform_url, nickname)
        panel = open_protection(page, platform_url)
        euros = panel.locator(".limit-currency[data-currency='EUR']")
        dollars = panel.locator(".limit-currency[data-currency='USD']")
        dollars.wait_for()
        assert panel.locator(".limit-currency").count() == 2
        dollars.locator("input[name=week]").fill("30")
        dollars.locator("button[type=submit]").click()
        dollars.locator("tr[data-period='week'] .in-force:has-text('30.00')").wait_for()
        assert "$" in dollars.locator("tr[data-period='week'] .in-force").inner_text()
        assert "none" in euros.locator("tr[data-period='week'] .in-force").inner_text()  # euros untouched
        euros.locator("input[name=day]").fill("20")
        euros.locator("button[type=submit]").click()
        euros.locator("tr[data-period='day'] .in-force:has-text('20.00')").wait_for()
        assert "€" in euros.locator("tr[data-period='day'] .in-force").inner_text()
        assert "30.00" in dollars.locator("tr[data-period='week'] .in-force").inner_text()
        limits = api.call("GET", f"/players/{me}/protection/deposit-limits")["limits"]
        amounts = {(c["currency"], w["period"]): w["amount"] for c in limits for w in c["windows"] if w["amount"]}
        assert amounts == {("USD", "week"): 3000, ("EUR", "day"): 2000}
        assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
        screenshot(page, "two-currencies")
    finally:
        page.close()
