"""What the director does with the table engine's reports beyond completed hands: a voided hand is dealt again
at the same level (P-10: the stacks are back at its start), a refused command is counted and logged."""

from __future__ import annotations

import random
from datetime import UTC, datetime
from pathlib import Path

from director_harness import running
from platform_kit.bus import Envelope
from platform_kit.events import table as table_bus
from platform_kit.testing import eventually
from tournament_director.domain.entries import Price
from tournament_director.domain.run import TournamentRun
from tournament_director.domain.templates import heads_up_sit_and_go

NOW = datetime(2025, 6, 1, 18, 0, tzinfo=UTC)


def test_p10_hand_in_progress_is_the_start_hand_to_deal_again_until_the_hand_completes() -> None:
    definition = heads_up_sit_and_go("HU", Price(prize_part_cents=900, fee_cents=100))
    started, messages = TournamentRun.start("t", definition, ["a", "b"], random.Random(1), NOW, currency="EUR")
    [deal] = [message for message in messages if isinstance(message, table_bus.StartHand)]

    assert started.hand_in_progress(deal.table_id) == deal
    assert started.hand_in_progress("t.1.9") is None and started.hand_in_progress("other") is None
    [opened] = [message for message in messages if isinstance(message, table_bus.OpenTable)]
    seats = {seated.player_id: seated.seat for seated in opened.seats}
    fact = table_bus.HandCompleted(
        table_id=deal.table_id,
        tournament_id="t",
        hand_id="h1",
        hand_no=1,
        button_seat=seats["a"],
        board=[],
        results=[
            table_bus.SeatResult(seat=seats["a"], player_id="a", start_stack=1_500, end_stack=1_480),
            table_bus.SeatResult(seat=seats["b"], player_id="b", start_stack=1_500, end_stack=1_520),
        ],
        pots=[],
        shown=[],
        busted_player_ids=[],
    )
    after = started.on_hand_completed(fact, NOW)
    [next_deal] = [message for message in after if isinstance(message, table_bus.StartHand)]
    assert started.hand_in_progress(deal.table_id) == next_deal and next_deal.hand_no == 2


async def test_p10_a_voided_hand_is_dealt_again_and_a_refused_command_is_counted(tmp_path: Path) -> None:
    async with running(tmp_path) as platform:
        created = await platform.create(
            {"template": "heads_up_sit_and_go", "name": "HU", "buy_in": {"prize_part_cents": 900, "fee_cents": 100}}
        )
        t = created["tournament_id"]
        platform.bots.hold()
        for player in ("ann", "bob"):
            await platform.fund(player, 5_000)
            await platform.register(t, player)

        async def dealt() -> list[table_bus.HandStarted]:
            return [e for e in platform.events(table_bus.HandStarted) if e.tournament_id == t]

        [hand] = await eventually(dealt, timeout=10)
        voided = table_bus.HandVoided(
            table_id=hand.table_id, tournament_id=t, hand_id=hand.hand_id, hand_no=hand.hand_no, restored=hand.seats
        )
        await platform.bus.publish(Envelope.wrap(voided, producer="table-engine").outgoing())

        async def dealt_again() -> list[table_bus.StartHand]:
            found = [e for e in platform.events(table_bus.StartHand) if e.table_id == hand.table_id]
            return found if len(found) == 2 else []

        first, again = await eventually(dealt_again, timeout=10)
        assert first == again  # the same hand number at the same level
        # The engine still plays that hand (nothing crashed really), so it refuses the second deal: counted.

        async def refused() -> bool:
            metrics = (await platform.director.get("/metrics")).text
            return (
                'tournament_table_commands_rejected_total{code="hand_in_progress",command="table.next_hand"} 1.0'
                in metrics
            )

        await eventually(refused, timeout=10)
        await platform.bots.release()
        finished = await platform.settled(t)
        assert finished["status"] == "finished"
