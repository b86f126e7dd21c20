"""Commands in, events out: a table plays hands on SQLite and the in-memory bus, as the director and the
gateway drive it."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest
from platform_kit.events import table as contract
from table_harness import Harness, running, runtime_of_app


@pytest.fixture
async def service(tmp_path: Path) -> AsyncIterator[Harness]:
    async with running(tmp_path / "table-engine.db") as harness:
        yield harness


async def test_a_hand_from_start_to_completion_reports_stacks_and_busts_p2_2(service: Harness) -> None:
    """Three players, seats 1-3, button on 1: seat 2 posts the small blind, 3 the big blind, 1 acts first."""
    await service.open_table("flow-1")
    opened = service.last(contract.TableOpened)
    assert (opened.shard, [s.player_id for s in opened.seats]) == (0, ["p1", "p2", "p3"])
    service.deck.deal(["AhAd", "KsKd", "7c2d"], board="2h3s8dJcQh")  # dealing order: seats 2, 3, 1

    hand_id = await service.start_hand("flow-1")
    started = service.last(contract.HandStarted)
    assert started.button_seat == 1
    assert [(s.seat, s.stack) for s in started.seats] == [(2, 1000), (3, 1000), (1, 1000)]
    blinds = [(a.seat, a.action, a.amount, a.stack_after, a.pot_after) for a in service.events(contract.ActionTaken)]
    assert blinds == [(2, "post_small_blind", 10, 990, 10), (3, "post_big_blind", 20, 980, 30)]
    request = service.to_act()
    assert (request.seat, request.call_amount, request.can_check, request.min_raise_to) == (1, 20, False, 40)

    await service.act("flow-1", hand_id, "p1", "fold")
    await service.act("flow-1", hand_id, "p2", "raise", 1000)
    await service.act("flow-1", hand_id, "p3", "call")

    completed = service.last(contract.HandCompleted)
    assert completed.hand_id == hand_id and completed.button_seat == 1
    assert [(r.player_id, r.start_stack, r.end_stack) for r in completed.results] == [
        ("p2", 1000, 2000),
        ("p3", 1000, 0),
        ("p1", 1000, 1000),
    ]
    assert completed.busted_player_ids == ["p3"]
    assert [(p.amount, p.eligible_seats, p.winner_seats, p.shares) for p in completed.pots] == [
        (2000, [2, 3], [2], [2000])
    ]
    assert completed.board == ["2h", "3s", "8d", "Jc", "Qh"]
    showdown = service.last(contract.ShowdownRevealed)
    assert {(s.seat, tuple(s.cards), s.category) for s in showdown.shown} == {
        (2, ("Ah", "Ad"), "one_pair"),
        (3, ("Ks", "Kd"), "one_pair"),
    }
    streets = [(s.street, len(s.board)) for s in service.events(contract.StreetDealt)]
    assert streets == [("flop", 3), ("turn", 4), ("river", 5)]

    view = (await service.get("/v1/tables/flow-1")).json()
    assert view["hand"] is None and view["button_seat"] == 1
    assert [(s["player_id"], s["stack"]) for s in view["seats"]] == [("p1", 1000), ("p2", 2000), ("p3", 0)]

    metrics = (await service.get("/metrics")).text  # what the hands-per-second and latency alerts read
    assert 'table_hands_ended_total{status="completed"} 1.0' in metrics
    assert 'table_command_seconds_count{type="table.act"} 3.0' in metrics


async def test_an_illegal_action_is_refused_to_the_player_alone_and_changes_nothing(service: Harness) -> None:
    await service.open_table("flow-2")
    hand_id = await service.start_hand("flow-2")
    published = len(service.messages())

    await service.act("flow-2", hand_id, "p1", "check")  # facing the big blind

    (key, envelope), *more = service.messages()[published:]
    assert not more
    assert key == "private.table.action.rejected"
    rejected = envelope.event()
    assert isinstance(rejected, contract.ActionRejected)
    assert (rejected.player_id, rejected.hand_id, rejected.code) == ("p1", hand_id, "cannot_check")
    await service.act("flow-2", hand_id, "p1", "call")
    assert service.last(contract.ActionTaken).action == "call"


@pytest.mark.parametrize(
    ("player", "hand", "code"),
    [("p2", "current", "not_your_turn"), ("p1", "stale", "stale_hand"), ("p9", "current", "not_seated")],
)
async def test_actions_out_of_turn_for_another_hand_or_from_strangers_are_refused(
    service: Harness, player: str, hand: str, code: str
) -> None:
    await service.open_table("flow-3")
    hand_id = await service.start_hand("flow-3")
    await service.act("flow-3", hand_id if hand == "current" else "an-old-hand", player, "call")
    assert service.last(contract.ActionRejected).code == code
    assert service.to_act().seat == 1


async def test_raise_without_amount_is_refused(service: Harness) -> None:
    await service.open_table("flow-4")
    hand_id = await service.start_hand("flow-4")
    await service.act("flow-4", hand_id, "p1", "raise")
    assert service.last(contract.ActionRejected).code == "invalid_amount"


async def test_p1_2_the_next_hand_follows_the_dead_button_rule_without_the_busted_seat(service: Harness) -> None:
    await service.open_table("flow-5", stacks=(1000, 1000, 1000, 1000))
    service.deck.deal(["AhAd", "KsKd", "7c2d", "8c3d"], board="2h3s8dJcQh")  # seats 2, 3, 4, 1
    hand_id = await service.start_hand("flow-5")
    await service.act("flow-5", hand_id, "p4", "fold")
    await service.act("flow-5", hand_id, "p1", "fold")
    await service.act("flow-5", hand_id, "p2", "raise", 1000)
    await service.act("flow-5", hand_id, "p3", "call")
    assert service.last(contract.HandCompleted).busted_player_ids == ["p3"]
    await service.send(contract.UnseatPlayer(table_id="flow-5", player_id="p3", reason="busted"))
    assert service.last(contract.PlayerUnseated).player_id == "p3"

    second = await service.start_hand("flow-5", hand_no=2)
    started = service.last(contract.HandStarted)
    # The big blind moves on to seat 4; the small blind is dead (seat 3 emptied), the button goes to seat 2.
    assert started.button_seat == 2
    assert [s.seat for s in started.seats] == [4, 1, 2]
    posts = [(a.seat, a.action) for a in service.events(contract.ActionTaken) if a.hand_id == second]
    assert posts == [(4, "post_big_blind")]
    assert service.to_act().seat == 1


async def test_director_commands_the_table_cannot_apply_are_rejected_publicly(service: Harness) -> None:
    await service.open_table("flow-6")
    await service.start_hand("flow-6")
    await service.send(
        contract.StartHand(table_id="flow-6", hand_no=2, level=contract.Level(small_blind=10, big_blind=20))
    )
    rejected = service.last(contract.CommandRejected)
    assert (rejected.command, rejected.code) == ("table.next_hand", "hand_in_progress")
    await service.send(
        contract.SeatPlayer(table_id="flow-6", player=contract.SeatedPlayer(seat=2, player_id="x", stack=5))
    )
    assert service.last(contract.CommandRejected).code == "seat_taken"
    await service.send(contract.PauseTable(table_id="nowhere", reason="break"))
    assert service.last(contract.CommandRejected).code == "unknown_table"


async def test_a_table_with_one_player_with_chips_deals_nothing(service: Harness) -> None:
    await service.open_table("flow-7", stacks=(1000,))
    await service.send(
        contract.StartHand(table_id="flow-7", hand_no=1, level=contract.Level(small_blind=10, big_blind=20))
    )
    assert service.last(contract.CommandRejected).code == "cannot_deal"
    assert not service.events(contract.HandStarted)


async def test_chips_and_unseats_during_a_hand_wait_for_its_end(service: Harness) -> None:
    await service.open_table("flow-8")
    hand_id = await service.start_hand("flow-8")
    await service.send(contract.AddChips(table_id="flow-8", player_id="p3", amount=500, reason="addon"))
    await service.send(contract.UnseatPlayer(table_id="flow-8", player_id="p1", reason="disqualified"))
    # p1 was to act: folded for them at once; nobody is unseated mid-hand.
    fold = service.last(contract.ActionTaken)
    assert (fold.seat, fold.action, fold.automatic) == (1, "fold", "sitting_out")
    assert not service.events(contract.PlayerUnseated)
    view = (await service.get("/v1/tables/flow-8")).json()
    assert [s["stack"] for s in view["seats"]] == [1000, 990, 980]

    await service.act("flow-8", hand_id, "p2", "fold")
    assert [(r.seat, r.end_stack) for r in service.last(contract.HandCompleted).results] == [
        (2, 990),
        (3, 1010),
        (1, 1000),
    ]
    assert service.last(contract.PlayerUnseated).player_id == "p1"
    view = (await service.get("/v1/tables/flow-8")).json()
    assert [(s["seat"], s["stack"]) for s in view["seats"]] == [(2, 990), (3, 1510)]


async def test_p10_closing_a_table_mid_hand_voids_the_hand(service: Harness) -> None:
    await service.open_table("flow-9")
    hand_id = await service.start_hand("flow-9")
    await service.act("flow-9", hand_id, "p1", "raise", 300)
    await service.send(contract.CloseTable(table_id="flow-9", reason="table_broken"))
    voided = service.last(contract.HandVoided)
    assert voided.hand_id == hand_id
    assert sorted((s.seat, s.stack) for s in voided.restored) == [(1, 1000), (2, 1000), (3, 1000)]
    assert service.last(contract.TableClosed).reason == "table_broken"
    await service.act("flow-9", hand_id, "p2", "call")
    assert service.last(contract.ActionRejected).code == "table_closed"
    hands = (await service.get("/v1/tables/flow-9/hands")).json()["hands"]
    assert [(h["hand_id"], h["status"]) for h in hands] == [(hand_id, "voided")]


async def test_p10_a_restart_voids_the_interrupted_hand_and_the_next_hand_is_playable(tmp_path: Path) -> None:
    database = tmp_path / "restart.db"
    async with running(database) as before:
        await before.open_table("flow-10")
        hand_id = await before.start_hand("flow-10")
        await before.act("flow-10", hand_id, "p1", "raise", 300)
        await before.act("flow-10", hand_id, "p2", "call")
    # The process stopped with the hand unfinished: the database says it is in progress.
    async with running(database) as after:
        voided = after.last(contract.HandVoided)
        assert (voided.hand_id, voided.hand_no, voided.tournament_id) == (hand_id, 1, "t-1")
        assert [(s.seat, s.player_id, s.stack) for s in voided.restored] == [
            (2, "p2", 1000),
            (3, "p3", 1000),
            (1, "p1", 1000),
        ]
        view = (await after.get("/v1/tables/flow-10")).json()
        assert view["hand"] is None and [s["stack"] for s in view["seats"]] == [1000, 1000, 1000]

        second = await after.start_hand("flow-10", hand_no=2)
        assert after.last(contract.HandStarted).button_seat == 1  # the void hand's positions again
        await after.act("flow-10", second, "p1", "fold")
        await after.act("flow-10", second, "p2", "fold")
        assert after.last(contract.HandCompleted).hand_id == second
        await after.act("flow-10", hand_id, "p3", "call")
        assert after.last(contract.ActionRejected).code == "stale_hand"


@pytest.mark.parametrize(
    ("structure", "bounds"), [("no_limit", (40, 1000)), ("pot_limit", (40, 70)), ("fixed_limit", (40, 40))]
)
async def test_p1_1_the_table_plays_its_betting_structure(
    service: Harness, structure: str, bounds: tuple[int, int]
) -> None:
    """Facing the big blind of 20 (pot 30): pot-limit allows a raise to 20 + 30 + 20 = 70."""
    await service.open_table(f"flow-{structure}", betting_structure=structure)
    await service.start_hand(f"flow-{structure}")
    request = service.to_act()
    assert (request.min_raise_to, request.max_raise_to) == bounds


async def test_an_action_whose_transaction_failed_is_applied_once_when_delivered_again(
    service: Harness, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The shard keeps each table in memory between commands (issue 14). The step changed that table before its
    save failed: the retry must start from the table as committed, not from the changed copy (P-10: no chip
    made or lost, the action applied once)."""
    await service.open_table("flow-retry")
    service.deck.deal(["AhAd", "KsKd", "7c2d"], board="2h3s8dJcQh")
    hand_id = await service.start_hand("flow-retry")
    outbox = runtime_of_app(service.app).outbox
    add_many = outbox.add_many
    failures = [RuntimeError("the database went away")]

    async def fails_once(*args: object, **kwargs: object) -> object:
        if failures:
            raise failures.pop()
        return await add_many(*args, **kwargs)

    monkeypatch.setattr(outbox, "add_many", fails_once)
    await service.act("flow-retry", hand_id, "p1", "raise", 100)  # the bus delivers it again after the failure

    assert not failures, "the first delivery failed"
    raises = [a for a in service.events(contract.ActionTaken) if a.seat == 1]
    assert [(a.action, a.amount, a.stack_after) for a in raises] == [("raise", 100, 900)]
    await service.act("flow-retry", hand_id, "p2", "call")
    await service.act("flow-retry", hand_id, "p3", "fold")
    view = (await service.get("/v1/tables/flow-retry")).json()
    stacks = [s["stack"] for s in view["seats"]]
    hand = view["hand"]
    assert sum(stacks) + (hand["pot"] if hand else 0) == 3000
