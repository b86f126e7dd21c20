"""Provably fair deals in the browser (P-1.3, docs/fair-deal.md), against a gateway alone (as test_table_client):
the web client sends its own random value for the next hand when a hand it is dealt in starts (32 bytes of
crypto.getRandomValues, as the player seated there), keeps the commitment published with each hand it saw dealt,
and its replayer recomputes the deck with Web Crypto from the seed and contributions the history reveals: "deal
verified / mano verificata" when the seed hashes to the commitment it saw and every card shown is the one the
seed gives; a warning for a tampered card, seed or commitment; the history's own commitment, said so, for a
hand this browser did not see dealt. The deck is derived here by the table engine's own Python code: the
browser's derivation must agree with it card for card."""

from __future__ import annotations

import secrets
from typing import Any

import pytest
from browser_support import DESKTOP
from platform_kit.events.table import ContributeToDeck
from table_engine.domain.cards import card_text
from table_engine.domain.fair_deal import commitment, derive_deck
from test_hand_replayer import alice_copy
from test_table_client import TABLE, Gateway, deal_and_ask_alice, gateway, page, seated_at_the_table, wait_for

pytestmark = pytest.mark.e2e
__all__ = ["gateway", "page"]  # the fixtures this module borrows

#: docs/fair-deal.md's test vector.
VECTOR_SEED = bytes(range(32)).hex()
VECTOR_DECK = [
    "8s",
    "2c",
    "Kc",
    "2s",
    "4d",
    "Th",
    "8c",
    "9d",
    "Qs",
    "5h",
    "As",
    "Jd",
    "5s",
    "6h",
    "Ad",
    "6d",
    "3d",
    "9c",
    "6c",
    "2h",
    "8d",
    "3s",
    "Kh",
    "Qh",
    "Ts",
    "7d",
    "Qd",
    "9s",
    "6s",
    "5c",
    "8h",
    "3h",
    "Kd",
    "Js",
    "Ac",
    "7s",
    "4s",
    "Ah",
    "4h",
    "9h",
    "Jh",
    "7h",
    "Jc",
    "2d",
    "Td",
    "4c",
    "Tc",
    "7c",
    "3c",
    "Ks",
    "Qc",
    "5d",
]


def played_copy(alice: str, bob: str, seed: bytes, contributions: list[str]) -> str:
    """Alice's copy of a heads-up hand checked down to a showdown, dealt from the deck the seed derives: Bob is
    first in dealing order (positions 0 and 2), Alice second (1 and 3), the board at 5-7, 9 and 11."""
    deck = [card_text(card) for card in derive_deck(seed, contributions)]
    bob_cards, alice_cards = deck[0] + deck[2], deck[1] + deck[3]
    actions = [
        "d dh p1 ????", f"d dh p2 {alice_cards}", "p2 cc", "p1 cc", f"d db {deck[5]}{deck[6]}{deck[7]}",
        "p1 cc", "p2 cc", f"d db {deck[9]}", "p1 cc", "p2 cc", f"d db {deck[11]}", "p1 cc", "p2 cc",
        f"p2 sm {alice_cards}", f"p1 sm {bob_cards}",
    ]  # fmt: skip
    return alice_copy(
        alice,
        bob,
        actions,
        finishing_stacks=[1520, 1480],
        _hand_id="h-1",
        _deck_seed=seed.hex(),
        _deck_contributions=contributions,
        _deck_commitment=commitment(seed),
    )


def deal_check(page: Any, gateway: Gateway, phh: str) -> Any:
    """Open the replayer of hand h-1 serving `phh`; the deal's check box once shown."""
    gateway.phh = phh
    page.goto(f"{gateway.url}/#/table/{TABLE}/hands/h-1")
    page.reload()  # the route is the same from one check to the next: load it again
    return page.wait_for_selector(".deal-check[data-hand='h-1']")


@pytest.mark.parametrize("page", [DESKTOP], ids=["desktop"], indirect=True)
def test_p1_3_the_client_contributes_and_its_replayer_verifies_the_deal(
    gateway: Gateway, page: Any, screenshot: Any
) -> None:
    alice, bob = seated_at_the_table(gateway, page)
    derived = page.evaluate(f"deriveDeck('{VECTOR_SEED}', ['table-1'])")
    assert derived == VECTOR_DECK  # the browser's derivation is the documented one

    seed = secrets.token_bytes(32)
    following = commitment(secrets.token_bytes(32))
    deal_and_ask_alice(gateway, alice, bob, {"deck_commitment": commitment(seed), "next_deck_commitment": following})
    [sent] = wait_for(lambda: gateway.commands(ContributeToDeck.TYPE))  # for the next hand, by itself
    assert sent["player_id"] == alice and sent["table_id"] == TABLE and len(sent["value"]) == 64
    assert wait_for(lambda: page.evaluate("seenCommitments.of('h-1')")) == commitment(seed)

    contributions = [TABLE, secrets.token_hex(32)]
    fair = played_copy(alice, bob, seed, contributions)
    check = deal_check(page, gateway, fair)
    assert check.get_attribute("data-status") == "verified" and check.get_attribute("data-against") == "seen"
    text = check.inner_text()
    assert "Deal verified" in text and "Mano verificata" in text and "9 cards checked" in text
    screenshot(page, "verified")

    other = secrets.token_bytes(32)
    river = card_text(derive_deck(seed, contributions)[11])
    fake_river = next(c for c in ("2c", "3c") if c != river)
    tampered = {
        "card": fair.replace(f"d db {river}", f"d db {fake_river}"),
        "contribution": fair.replace(contributions[1], secrets.token_hex(32)),
        # Another seed with its own matching commitment: fine by the file alone, not by what was published.
        "seed and commitment": played_copy(alice, bob, other, contributions),
    }
    for what, phh in tampered.items():
        check = deal_check(page, gateway, phh)
        assert check.get_attribute("data-status") == "mismatch", what
        assert "Deal NOT verified" in check.inner_text() and "Mano NON verificata" in check.inner_text(), what
    screenshot(page, "warning")

    page.evaluate("sessionStorage.clear()")  # a browser that did not see the hand dealt
    check = deal_check(page, gateway, fair)
    assert (check.get_attribute("data-status"), check.get_attribute("data-against")) == ("verified", "file")
    assert "the commitment is the one in the history" in check.inner_text()
