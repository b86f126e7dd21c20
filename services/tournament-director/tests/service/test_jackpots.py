"""Progressive jackpots (P-8.6) through the wallet: funded from the fees, paid to the qualifier."""

from __future__ import annotations

from pathlib import Path

from director_harness import CONCESSIONAIRE, running
from platform_kit.events import tournament as events
from tournament_director.adapters import jackpot_store

PRICE = {"prize_part_cents": 900, "fee_cents": 100}
FUNDS = 5_000
#: Half of each fee (net of tax) funds the programme; two tournaments won in a row win it.
STREAK = {"programme_id": "two-in-a-row", "fee_share_bps": 5_000, "condition": {"kind": "win_streak", "wins_in_row": 2}}


async def test_p8_6_a_win_streak_jackpot_is_funded_from_the_fees_and_paid_to_the_winner(tmp_path: Path) -> None:
    """3% tax: each 10.00 entry's fee net of its tax is 1.00 - 0.30 = 0.70, half of it 0.35 to the programme."""
    async with running(tmp_path, tax_rate_bps=300) as platform:
        created = await platform.create(
            {"template": "heads_up_sit_and_go", "name": "HU", "buy_in": PRICE, "jackpots": [STREAK]}
        )
        t = created["tournament_id"]
        async with platform.service.runtime.db.transaction() as session:  # both won their previous one
            await jackpot_store.put_streaks(session, "two-in-a-row", {"ann": 1, "bob": 1})
        for player in ("ann", "bob"):
            await platform.fund(player, FUNDS)
            await platform.register(t, player)

        await platform.settled(t)

        [result] = platform.events(events.TournamentFinished)
        winner = result.ranking[0].player_id
        [qualified] = platform.events(events.JackpotQualified)
        [awarded] = platform.events(events.JackpotAwarded)
        assert (qualified.player_id, qualified.hand_id) == (winner, None)
        assert (awarded.player_id, awarded.amount_cents, awarded.concessionaire_id) == (winner, 70, CONCESSIONAIRE)
        assert await platform.balance(winner) == FUNDS - 1_000 + 1_800 + 70
        async with platform.service.runtime.db.transaction() as session:
            assert await jackpot_store.fund_balance(session, "two-in-a-row", CONCESSIONAIRE, "EUR") == 0
            assert await jackpot_store.streaks(session, "two-in-a-row", ["ann", "bob"]) == {"ann": 0, "bob": 0}
        [settled] = platform.events(events.SettlementCompleted)
        assert settled.tax_cents == 60  # 3% of the 20.00 base (P-8.7)
        assert await platform.escrow(t) == 0 and await platform.reconciled()
