"""The action clock and its time bank (frozen clock), and sitting out: automatic blinds, folded or checked."""

from __future__ import annotations

from collections.abc import AsyncIterator
from datetime import timedelta
from pathlib import Path

import pytest
from platform_kit.events import table as contract
from table_harness import START, Harness, running


@pytest.fixture
async def service(tmp_path: Path) -> AsyncIterator[Harness]:
    async with running(tmp_path / "clock.db") as harness:
        await harness.open_table("clock", action_seconds=20, time_bank_seconds=30)
        yield harness


async def test_the_default_action_applies_when_the_clock_and_the_time_bank_run_out(service: Harness) -> None:
    hand_id = await service.start_hand("clock")
    request = service.to_act()
    assert (request.seat, request.deadline, request.time_bank_seconds) == (
        1,
        (START + timedelta(seconds=20)).isoformat(),
        30,
    )

    await service.tick(49.9)
    assert service.to_act() == request and not any(a.seat == 1 for a in service.events(contract.ActionTaken))
    await service.tick(0.1)

    fold = service.last(contract.ActionTaken)
    assert (fold.seat, fold.action, fold.automatic) == (1, "fold", "timeout")
    out = service.last(contract.SittingOutChanged)
    assert (out.player_id, out.sitting_out, out.reason) == ("p1", True, "timeout")
    assert (service.to_act().seat, service.to_act().hand_id) == (2, hand_id)


async def test_checking_is_the_default_when_it_is_free(service: Harness) -> None:
    hand_id = await service.start_hand("clock")
    await service.act("clock", hand_id, "p1", "call")
    await service.act("clock", hand_id, "p2", "call")
    assert service.to_act().can_check
    await service.tick(50)
    check = service.last(contract.ActionTaken)
    assert (check.seat, check.action, check.automatic) == (3, "check", "timeout")
    assert service.last(contract.StreetDealt).street == "flop"


async def test_acting_late_spends_the_time_bank(service: Harness) -> None:
    hand_id = await service.start_hand("clock")
    await service.tick(25)  # 5 s into the time bank
    await service.act("clock", hand_id, "p1", "fold")
    await service.act("clock", hand_id, "p2", "fold")
    await service.start_hand("clock", hand_no=2)
    # The button moves to seat 2: p3 posts the small blind, p1 the big blind, p2 acts first.
    await service.act("clock", service.to_act().hand_id, "p2", "fold")
    await service.act("clock", service.to_act().hand_id, "p3", "call")
    request = service.to_act()
    assert (request.player_id, request.time_bank_seconds) == ("p1", 25)


async def test_a_player_sitting_out_posts_the_blinds_and_is_folded_or_checked_at_once(service: Harness) -> None:
    await service.send(contract.SetSittingOut(table_id="clock", player_id="p2", sitting_out=True))
    await service.send(contract.SetSittingOut(table_id="clock", player_id="p3", sitting_out=True))
    assert [(e.player_id, e.sitting_out, e.reason) for e in service.events(contract.SittingOutChanged)] == [
        ("p2", True, "requested"),
        ("p3", True, "requested"),
    ]
    hand_id = await service.start_hand("clock")
    await service.act("clock", hand_id, "p1", "call")
    actions = [(a.seat, a.action, a.automatic) for a in service.events(contract.ActionTaken)]
    assert actions == [
        (2, "post_small_blind", None),
        (3, "post_big_blind", None),
        (1, "call", None),
        (2, "fold", "sitting_out"),
        (3, "check", "sitting_out"),
        (3, "check", "sitting_out"),  # first to act on the flop
    ]
    assert service.to_act().player_id == "p1"

    await service.send(contract.SetSittingOut(table_id="clock", player_id="p2", sitting_out=False))
    assert (service.last(contract.SittingOutChanged).sitting_out, service.last(contract.SittingOutChanged).reason) == (
        False,
        "requested",
    )


async def test_sitting_out_during_ones_own_turn_folds_at_once(service: Harness) -> None:
    hand_id = await service.start_hand("clock")
    await service.send(contract.SetSittingOut(table_id="clock", player_id="p1", sitting_out=True))
    fold = service.last(contract.ActionTaken)
    assert (fold.seat, fold.action, fold.automatic, fold.hand_id) == (1, "fold", "sitting_out", hand_id)
    assert service.to_act().seat == 2
