"""Issue 15, item 11: the in-client hand replayer, in the browser against a gateway alone (as test_table_client):
from the table's hand history, a hand is stepped through from the player's own PHH — the blinds, each action with
the pot, the board street by street, the showdown and who won what with which hand, in both languages — and the
other player's cards stay hidden until shown (P-1.4)."""

from __future__ import annotations

import json
from typing import Any

import pytest
from browser_support import DESKTOP, PHONE
from test_table_client import TABLE, Gateway, cards_in, gateway, page, seated_at_the_table

pytestmark = pytest.mark.e2e
__all__ = ["gateway", "page"]  # the fixtures this module borrows

#: Heads-up, dealing order Bob (big blind) then Alice (button, small blind); PHH lists the blinds reversed.
ACTIONS = [
    "d dh p1 ????", "d dh p2 AsKd", "p2 cbr 60", "p1 cc", "d db 2s7sTs", "p1 cc", "p2 cbr 100", "p1 cc",
    "d db Qs", "p1 cc", "p2 cc", "d db 3d", "p1 cc", "p2 cc", "p2 sm AsKd", "p1 sm QhQc",
]  # fmt: skip


def alice_copy(alice: str, bob: str, actions: list[str] = ACTIONS, **more: Any) -> str:
    """Alice's copy of hand h-1; `more`: fields added or replaced (the deck's seed, for instance)."""
    lines = {
        "variant": "NT",
        "antes": [0, 0],
        "blinds_or_straddles": [10, 20],
        "min_bet": 20,
        "starting_stacks": [1500, 1500],
        "actions": actions,
        "seats": [2, 1],
        "players": [bob, alice],
        "finishing_stacks": [1340, 1660],
    } | more
    return "".join(f"{key} = {json.dumps(value)}\n" for key, value in lines.items())


@pytest.mark.parametrize("page", [PHONE, DESKTOP], ids=["phone", "desktop"], indirect=True)
def test_issue15_11_a_hand_replays_step_by_step_from_its_phh(gateway: Gateway, page: Any, screenshot: Any) -> None:
    alice, bob = seated_at_the_table(gateway, page)
    gateway.phh = alice_copy(alice, bob)
    page.goto(f"{gateway.url}/#/table/{TABLE}/hands")
    page.locator("a[data-replay='h-1']").click()
    page.wait_for_selector(".replay-step")
    assert "Step 1 of 17" in page.locator(".step-no").inner_text()
    assert "Blinds posted" in page.locator(".step-line").inner_text()
    assert "30" in page.locator(".replay .pot").inner_text()
    page.click("[data-step='next']")
    assert cards_in(page, f"tr[data-player='{alice}'] .card") == ["As", "Kd"]
    assert cards_in(page, f"tr[data-player='{bob}'] .card") == []  # Bob's cards: hidden until shown
    page.click("[data-step='next']")
    line = page.locator(".step-line").inner_text()
    assert "Alice raises to 60" in line and "Alice rilancia a 60" in line
    assert "80" in page.locator(".replay .pot").inner_text()
    page.keyboard.press("ArrowRight")
    page.keyboard.press("ArrowRight")
    assert "Flop" in page.locator(".step-line").inner_text()
    assert cards_in(page, ".replay .board .card") == ["2s", "7s", "Ts"]
    assert "120" in page.locator(".replay .pot").inner_text()
    screenshot(page, "flop")

    page.click("[data-step='last']")
    assert "Step 17 of 17" in page.locator(".step-no").inner_text()
    won = page.locator(".winner-line").inner_text()
    assert "Alice wins 320 with a flush, ace high" in won and "Alice vince 320 con colore all'asso" in won
    assert cards_in(page, f"tr[data-player='{bob}'] .card") == ["Qh", "Qc"]
    best = [c.get_attribute("aria-label") for c in page.locator(".replay .card.best").all()]
    assert sorted(best) == sorted(["As", "2s", "7s", "Ts", "Qs"])
    assert "1,660" in page.locator(f"tr[data-player='{alice}']").inner_text()
    screenshot(page, "result")
    page.click("[data-step='back']")
    assert "Step 16 of 17" in page.locator(".step-no").inner_text()
