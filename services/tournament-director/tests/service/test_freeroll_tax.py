"""The tax base of a sponsored freeroll (P-8.7, P-9.2): the whole entry the concessionaire buys, not only its
prize part."""

from __future__ import annotations

from datetime import timedelta
from pathlib import Path

from director_harness import OPERATOR, START, TOKEN, running
from platform_kit.events import tournament as events

PLAYERS = [f"p{n:02d}" for n in range(1, 11)]


async def test_p8_7_p9_2_a_sponsored_freeroll_is_taxed_on_the_whole_entry_of_every_player(tmp_path: Path) -> None:
    """Ten players, each entry bought by the concessionaire at 0.40 + 0.10 (P-9.2): the tax base is
    10 × 0.50 = 5.00 (P-8.7: every sponsored entry, whole), not the 4.00 of prize parts; at 20% the tax is 1.00."""
    async with running(tmp_path, tax_rate_bps=2_000) as platform:
        body = {"template": "freeroll", "name": "Freeroll", "starts_at": (START + timedelta(hours=1)).isoformat()}
        t = (await platform.create(body, headers=OPERATOR))["tournament_id"]
        for player in PLAYERS:
            assert (await platform.register(t, player)).status_code == 201

        await platform.tick(timedelta(hours=1))
        await platform.settled(t)

        ledger = await platform.wallet.get(f"/internal/v1/tournaments/{t}", headers={"X-Internal-Token": TOKEN})
        assert ledger.json()["tax_base"] == [
            {"concessionaire_id": "c1", "currency": "EUR", "amount": 500, "entries": 10}
        ]
        [settled] = platform.events(events.SettlementCompleted)
        assert settled.tax_cents == 100
        [result] = platform.events(events.TournamentFinished)
        assert result.prize_pool_from_entries_cents == 400  # the prize parts alone form the pool (P-9.2)
        assert await platform.escrow(t) == 0 and await platform.reconciled()
