"""Issue 15, item 10: the leaderboard shows the standing as of now — not "0 active players" until a day closes —
with each player's tier, and says when the tiers are recomputed, in both languages (against a gateway alone with
the rating service faked, as in test_table_client)."""

from __future__ import annotations

from typing import Any

import pytest
from browser_support import DESKTOP, PHONE
from test_table_client import Gateway, gateway, page, sign_up_both

pytestmark = pytest.mark.e2e
__all__ = ["gateway", "page"]  # the fixtures this module borrows

TIERS = [
    ("GRUPPO_UNO", "GRUPPO UNO (Group One)"),
    ("GRUPPO_DUE", "GRUPPO DUE (Group Two)"),
    ("ESORDIENTE", "ESORDIENTE (Newcomer)"),
]
AT = "2030-06-02T00:00:00+02:00"


def boards() -> dict[str, dict[str, Any]]:
    entries = [
        {"rank": n, "nickname": name, "rating": rating, "tier": tier, "tier_label": label}
        for n, (name, rating, (tier, label)) in enumerate(
            zip(["Alice", "Shark", "Rookie"], ["12.500000", "9.250000", "0.000000"], TIERS, strict=True), start=1
        )
    ]
    common = {"page": 1, "size": 50, "tiers_recomputed_at": AT, "tiers_of_day": None}
    return {
        "closed": common | {"day": "2030-05-31", "active_count": 0, "entries": [], "live": False},
        "now": common | {"day": "2030-06-01", "active_count": 3, "entries": entries, "live": True},
    }


@pytest.mark.parametrize("page", [PHONE, DESKTOP], ids=["phone", "desktop"], indirect=True)
def test_issue15_10_the_leaderboard_shows_the_standing_as_of_now_and_when_tiers_change(
    gateway: Gateway, page: Any, screenshot: Any
) -> None:
    gateway.leaderboards = boards()
    sign_up_both(gateway, page)
    page.goto(f"{gateway.url}/#/leaderboard")
    page.wait_for_selector("td:has-text('Rookie')")
    rows = page.locator("table.grid tbody tr")
    assert rows.count() == 3
    text = page.locator("table.grid").inner_text()
    assert "GRUPPO UNO" in text and "Group One" in text and "ESORDIENTE" in text
    assert "12.5" in rows.first.inner_text()
    info = page.locator(".standing-now").inner_text()
    assert (
        "Standing as of now · 3 active players" in info and "Classifica aggiornata a ora · 3 giocatori attivi" in info
    )
    when = page.locator(".tiers-when").inner_text()
    assert "Tiers are recomputed when the day closes" in when and "Le fasce si ricalcolano" in when
    assert "2030" in when
    screenshot(page, "leaderboard")
