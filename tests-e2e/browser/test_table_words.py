"""Issue 15, item 8, against a gateway alone (as test_table_client): a sign-up the gateway refuses names the rule
broken in both languages (not the server's developer sentence); at the table, what the table engine says to
a player — a refused action (its `code`, the message being the engine's English) and the disconnection
protection it applied (its `outcome`) — reads in both languages, the chosen one first, each half with its own
language's numbers and money (the lobby's refund notice, a rebuy offer at the table). And a refused action gives the player their action bar
back (it used to vanish for the rest of the turn: no new request comes)."""

from __future__ import annotations

from typing import Any

import pytest
from browser_support import LAPTOP, PHONE, open_sign_up
from platform_kit.events.table import ActionRejected, HandStarted, Level, PlayerProtectionApplied, SeatedPlayer
from platform_kit.events.tournament import LevelChanged, RebuyOffered
from playwright.sync_api import expect
from test_table_client import TABLE, Gateway, deal_and_ask_alice, gateway, page, seated_at_the_table, sign_up_both

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


def test_issue15_8_a_refund_notice_writes_money_each_languages_way(gateway: Gateway, page: Any) -> None:
    sign_up_both(gateway, page)
    page.goto(f"{gateway.url}/#/lobby")
    page.click("article[data-tournament='snd-1'] button[data-tournament]")
    unregister = page.locator("article[data-tournament='snd-1'] button.secondary")
    unregister.click()
    notice = page.locator("#toasts .toast", has_text="Unregistered")
    assert notice.inner_text() == "Unregistered: €5.00 refunded. · Iscrizione annullata: 5,00\xa0€ rimborsati."


def test_issue15_8_a_rebuy_offer_writes_chips_and_money_each_languages_way(gateway: Gateway, page: Any) -> None:
    alice, bob = seated_at_the_table(gateway, page)
    seated = [SeatedPlayer(seat=1, player_id=alice, stack=1500), SeatedPlayer(seat=2, player_id=bob, stack=1500)]
    level = Level(small_blind=10, big_blind=20)
    gateway.publish(
        HandStarted(
            table_id=TABLE, tournament_id="mtt-1", hand_id="h-1", hand_no=1, button_seat=1, level=level, seats=seated
        )
    )
    # The table follows its tournament once it knows it: level changes reach its log from then on.
    changed = LevelChanged(tournament_id="mtt-1", level_no=2, small_blind=15, big_blind=30, ante=0, ends_at=None)
    heard = page.locator(".hand-log li", has_text="Level 2: blinds 15/30")
    not_yet = pytest.importorskip("playwright.sync_api").TimeoutError
    for _ in range(100):
        gateway.publish(changed)
        try:
            heard.first.wait_for(timeout=300)  # ends as soon as the line shows
            break
        except not_yet:  # not following yet: said again
            continue
    else:
        pytest.fail("the table never followed its tournament")
    offer = RebuyOffered(
        tournament_id="mtt-1",
        table_id=TABLE,
        player_id=alice,
        chips=1500,
        price_cents=500,
        expires_at="2099-01-01T00:00:00Z",
    )
    gateway.publish(offer)
    button = page.locator("#toasts .toast button", has_text="Rebuy")
    assert button.inner_text() == "Rebuy: 1,500 chips for €5.00 · Rebuy: 1.500 fiches per 5,00\xa0€"


@pytest.mark.parametrize("page", [PHONE, LAPTOP], ids=["phone", "laptop"], indirect=True)
def test_issue15_8_a_refused_sign_up_names_the_rule_in_both_languages(
    gateway: Gateway, page: Any, screenshot: Any
) -> None:
    open_sign_up(page, gateway.url)
    page.fill("input[name=nickname]", "Mario Rossi")  # a space: the browser lets it through, the gateway does not
    page.fill("input[name=email]", "mario@example.com")
    page.fill("input[name=date_of_birth]", "1990-05-17")
    page.fill("input[name=password]", "long enough password")
    page.click("form button[type=submit]")
    # The form's error line is there, empty, from the start: wait for its words, not for the element. 30 s: the
    # refusal is one round trip, but the machine may be loaded.
    expect(page.locator("form .error")).to_have_text(
        "Nickname: 3 to 20 characters, starting with a letter; only letters, digits, '_', '.' and '-'. · "
        "Soprannome: da 3 a 20 caratteri, iniziando con una lettera; solo lettere, cifre, '_', '.' e '-'.",
        timeout=30_000,
    )
    screenshot(page, "sign-up")
