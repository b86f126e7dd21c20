"""Issue 15, item 8: what the server says reaches players in both languages. The server's own texts are English;
the client shows its words for their machine-readable parts — the statement line the platform writes (the demo
welcome credit), and refusals by their problem code (a wrong password, a buy-in the player cannot afford) — in
the chosen language first with the other beside it. Against the whole platform: the wallet writes the line and
the director refuses the registration."""

from __future__ import annotations

import uuid
from typing import Any

import pytest
from browser_support import DESKTOP, PHONE, Api, sign_up_in_browser
from test_sit_and_go import heads_up_template, wait_for_welcome_credit

pytestmark = pytest.mark.e2e

WELCOME = ("Welcome credit (play money)", "Credito di benvenuto (denaro di prova)")
NO_MONEY = ("Not enough money in your account.", "Saldo insufficiente.")


@pytest.mark.timeout(300)
@pytest.mark.parametrize("viewport", [DESKTOP, PHONE], ids=["desktop", "phone"])
def test_issue15_8_server_words_reach_players_in_both_languages(
    platform_url: str, api: Api, browser: Any, screenshot: Any, viewport: dict[str, int]
) -> None:
    # A sit'n'go at the highest price, which the welcome credit (as much) pays for no more once the cashier has
    # paid a euro out: the director's refusal must read in both languages.
    name = f"E2E high roller {uuid.uuid4().hex[:6]}"
    price = {"prize_part_cents": 9_000, "fee_cents": 1_000}
    created = api.call("POST", "/tournaments", json={"template": heads_up_template(api), "name": name, "buy_in": price})
    page = browser.new_page(viewport=viewport)
    try:
        nickname = f"Words{uuid.uuid4().hex[:6]}"
        sign_up_in_browser(page, platform_url, nickname)
        wait_for_welcome_credit(page, platform_url)
        line = page.locator("tr[data-kind='deposit']").first
        line.wait_for()
        text = line.inner_text()
        assert f"{WELCOME[0]} · {WELCOME[1]}" in text and "demo welcome credit" not in text
        assert "Deposit · Deposito" in text
        screenshot(page, "statement")
        player_id = page.evaluate("JSON.parse(localStorage.getItem('principal')).id")
        paid_out = {"currency": "EUR", "amount": 100, "reference": "till-1"}
        headers = {"Idempotency-Key": uuid.uuid4().hex}
        api.call("POST", f"/players/{player_id}/withdrawals", json=paid_out, headers=headers)

        page.goto(f"{platform_url}/#/lobby")
        card = page.locator(f"article[data-tournament='{created['tournament_id']}']")
        card.locator("button[data-tournament]").click()
        toast = page.locator("#toasts .toast.error").last
        toast.wait_for()
        assert toast.inner_text() == f"{NO_MONEY[0]} · {NO_MONEY[1]}"
        screenshot(page, "refusal")

        # Italian chosen: Italian first, English beside it.
        page.click("button[data-lang='it']")
        page.wait_for_selector("html[lang='it']")
        page.goto(f"{platform_url}/#/account")
        line = page.locator("tr[data-kind='deposit']").first
        line.wait_for()
        assert f"{WELCOME[1]} · {WELCOME[0]}" in line.inner_text()
        page.click("nav button.link:not([data-lang])")  # log out
        page.wait_for_url("**/#/login")
        page.fill("input[name=login]", nickname)
        page.fill("input[name=password]", "not the password at all")
        page.click("form button[type=submit]")
        error = page.locator("form .error")
        error.wait_for()
        page.wait_for_function("document.querySelector('form .error').textContent.length > 0")
        assert error.inner_text() == "Soprannome, email o password non corretti. · Wrong nickname, email or password."
        screenshot(page, "login")
    finally:
        page.close()
