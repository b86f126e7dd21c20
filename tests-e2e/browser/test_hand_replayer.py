"""Issue 15, item 11: the in-client hand replayer, in the browser against a gateway alone (as test_table_client):
from the table's hand history, and from a finished tournament's results (its hands, every table's, or one
player's), a hand is stepped through from the player's own PHH — the blinds, each action with
the pot, the board street by street, the showdown and who won what with which hand, in both languages — and the
other player's cards stay hidden until shown (P-1.4)."""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any

import jwt
import pytest
from browser_support import DESKTOP, LAPTOP, PHONE
from gateway.adapters.access_tokens import ALGORITHM
from gateway.settings import DEV_JWT_SECRET
from test_table_client import TABLE, Gateway, cards_in, gateway, page, seated_at_the_table, sign_up_both

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


@pytest.mark.parametrize("page", [PHONE, LAPTOP], ids=["phone", "laptop"], indirect=True)
def test_issue15_11_a_finished_tournaments_results_lead_to_its_hands_and_their_replay(
    gateway: Gateway, page: Any, screenshot: Any
) -> None:
    viewport = page.viewport_size
    alice, bob = sign_up_both(gateway, page)
    gateway.tournament_finished = True
    gateway.phh = alice_copy(alice, bob)
    page.goto(f"{gateway.url}/#/tournament/mtt-1")
    page.wait_for_selector("table.standings a[data-hands]")
    assert "Finished" in page.locator("h1 + p").inner_text()
    assert page.locator(".result").inner_text() == "Position · Posizione: 1 · Prize · Premio €10.00"
    winner = page.locator(f"table.standings tr[data-player='{alice}']").inner_text()
    assert "€10.00" in winner and "Hands · Mani" not in winner  # her own row says "Your hands"
    assert "Your hands · Le tue mani" in winner
    box = page.locator("table.standings").bounding_box()
    assert box and box["x"] + box["width"] <= viewport["width"]
    payouts = page.locator("table.payouts").bounding_box()
    assert payouts and box["y"] < payouts["y"]  # over: the results come before the prize table and the structure
    screenshot(page, "results")

    # Her own hands: only those she was dealt in, asked of the server by her id.
    page.locator(".hand-links a[data-hands='mine']").click()
    page.wait_for_selector(".tournament-hands article[data-hand-id='h-1']")
    assert gateway.hand_queries[-1].get("player_id") == alice
    assert page.locator(".tournament-hands article").count() == 1
    page.locator("h1", has_text="Sunday Rebuy").wait_for()  # the tournament's name and the player's, once looked up
    page.locator(".whose", has_text="Hands dealt to Alice").wait_for()
    row = page.locator("article[data-hand-id='h-1']").inner_text()
    assert "Hand #1" in row and "Table 1 · Tavolo 1" in row and "Alice 1,500 → 1,660" in row
    # Every hand of the tournament, every table's.
    page.locator(".whose a[data-hands='all']").click()
    page.wait_for_selector("article[data-hand-id='h-2']")
    assert "player_id" not in gateway.hand_queries[-1]
    assert "Table 2 · Tavolo 2" in page.locator("article[data-hand-id='h-2']").inner_text()
    assert page.evaluate("document.documentElement.scrollWidth") <= viewport["width"]
    screenshot(page, "hands")

    # Bob's, from his row of the results; then the replay of the hand Alice and Bob played.
    page.goto(f"{gateway.url}/#/tournament/mtt-1")
    page.locator(f"table.standings a[data-hands='{bob}']").click()
    page.wait_for_selector("article[data-hand-id='h-2']")
    assert gateway.hand_queries[-1].get("player_id") == bob
    page.locator("a[data-replay='h-1']").click()
    page.wait_for_selector(".replay-step")
    assert "Step 1 of 17" in page.locator(".step-no").inner_text()
    page.click("[data-step='next']")
    assert cards_in(page, f"tr[data-player='{alice}'] .card") == ["As", "Kd"]
    assert cards_in(page, f"tr[data-player='{bob}'] .card") == []  # Bob's: hidden until shown (P-1.4)
    page.click("[data-step='last']")
    won = page.locator(".winner-line").inner_text()
    assert "Alice wins 320 with a flush, ace high" in won and "Alice vince 320 con colore all'asso" in won
    screenshot(page, "replay")
    page.locator("a:has-text('Hand history')").click()  # back to the tournament's hands, not a table's
    page.wait_for_selector(".tournament-hands article[data-hand-id='h-2']")


def expire_access_token(page: Any) -> None:
    """The page's access token, as it is once its life is over (a page left open): same claims, past expiry."""
    claims = jwt.decode(page.evaluate("session.accessToken"), options={"verify_signature": False})
    expired = jwt.encode(claims | {"exp": int(time.time()) - 60}, DEV_JWT_SECRET, algorithm=ALGORITHM)
    page.evaluate("token => { session.accessToken = token; }", expired)


def test_issue15_a_download_and_a_replay_outlive_an_expired_access_token(
    gateway: Gateway, page: Any, tmp_path: Path
) -> None:
    """Review of issue 15's client: PHH downloads and the replayer fetched with the access token as it was, and
    failed once it had expired; they refresh it and ask again, as every other call does."""
    alice, bob = sign_up_both(gateway, page)
    gateway.phh = alice_copy(alice, bob)
    page.goto(f"{gateway.url}/#/table/{TABLE}/hands")
    row = page.locator("article[data-hand='1']")
    row.wait_for()
    expire_access_token(page)
    with page.expect_download() as started:
        row.locator("button").click()
    saved = tmp_path / "hand.phh"
    started.value.save_as(saved)
    assert 'players = ["Bob", "Alice"]' in saved.read_text()
    expire_access_token(page)
    row.locator("a[data-replay='h-1']").click()
    page.wait_for_selector(".replay-step")
    assert "Step 1 of 17" in page.locator(".step-no").inner_text()
    assert page.locator("#toasts .toast.error").count() == 0
