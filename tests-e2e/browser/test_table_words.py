"""Issue 15, item 8, at the table (against a gateway alone, as test_table_client): what the table engine says to
a player — a refused action (its `code`, the message being the engine's English) and the disconnection
protection it applied (its `outcome`) — reads in both languages, the chosen one first. And a refused action
gives the player their action bar back (it used to vanish for the rest of the turn: no new request comes)."""

from __future__ import annotations

from typing import Any

import pytest
from browser_support import LAPTOP, PHONE
from platform_kit.events.table import ActionRejected, PlayerProtectionApplied
from test_table_client import TABLE, Gateway, deal_and_ask_alice, gateway, page, seated_at_the_table

pytestmark = pytest.mark.e2e
__all__ = ["gateway", "page"]  # the fixtures this module borrows


@pytest.mark.parametrize("page", [PHONE, LAPTOP], ids=["phone", "laptop"], indirect=True)
def test_issue15_8_the_tables_refusals_and_protections_read_in_both_languages(
    gateway: Gateway, page: Any, screenshot: Any
) -> None:
    alice, bob = seated_at_the_table(gateway, page)
    deal_and_ask_alice(gateway, alice, bob)
    page.click("button[data-action='raise']")
    page.wait_for_selector("button[data-action='raise']", state="detached")  # sent: the bar goes
    gateway.publish(
        ActionRejected(
            table_id=TABLE, hand_id="h-1", player_id=alice, code="amount_too_small", message="raise to 20 < 40"
        )
    )
    toast = page.locator("#toasts .toast.error").last
    toast.wait_for()
    assert toast.inner_text() == "That amount is too small. · Importo troppo basso."
    # Still her turn, and no new request comes for it: the bar is back, so she can act before her clock runs out.
    page.wait_for_selector("button[data-action='raise']")
    assert page.locator("button[data-action='fold']").is_visible()
    gateway.publish(PlayerProtectionApplied(table_id=TABLE, hand_id="h-1", player_id=bob, outcome="time_extended"))
    line = page.locator(".hand-log li", has_text="Disconnection protection")
    line.wait_for()
    assert line.inner_text() == (
        "Disconnection protection: more time to act. · Protezione per disconnessione: più tempo per agire."
    )
    screenshot(page, "refusal")

    # Italian chosen: the table is drawn again, the next words come Italian first.
    page.click("button[data-lang='it']")
    page.wait_for_selector("html[lang='it']")
    page.wait_for_selector("button[data-action='raise']")
    gateway.publish(ActionRejected(table_id=TABLE, hand_id="h-1", player_id=alice, code="not_your_turn", message="no"))
    page.wait_for_selector("#toasts .toast.error:has-text('Non è il tuo turno. · It is not your turn.')")
    # A code the client has no words for: the server's English, with a general Italian sentence first.
    gateway.publish(ActionRejected(table_id=TABLE, hand_id="h-1", player_id=alice, code="new_rule", message="Odd."))
    page.wait_for_selector("#toasts .toast.error:has-text('La richiesta non è andata a buon fine. · Odd.')")
