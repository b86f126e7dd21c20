"""Disconnection protection (P-13.2, P-13.3): the table's announced policy and the player's history decide
whether a disconnected player is folded (checked when free), gets extra time, or stays all-in for the pot so
far."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from platform_kit.events import table as contract
from table_harness import Harness, running


def policy(mode: str, **options: Any) -> contract.DisconnectPolicy:
    return contract.DisconnectPolicy(mode=mode, **options)


async def disconnect(service: Harness, table_id: str, player_id: str, connected: bool = False) -> None:
    await service.send(contract.PlayerConnection(table_id=table_id, player_id=player_id, connected=connected))


def outcomes(service: Harness) -> list[tuple[str, str]]:
    return [(e.player_id, e.outcome) for e in service.events(contract.PlayerProtectionApplied)]


async def test_p13_2_fold_policy_folds_at_once_or_checks_when_free(tmp_path: Path) -> None:
    async with running(tmp_path / "fold.db") as service:
        await service.open_table("dc-fold", disconnect_policy=policy("fold"))
        hand_id = await service.start_hand("dc-fold")
        await disconnect(service, "dc-fold", "p3")  # the big blind, not to act yet
        assert [(e.player_id, e.reason) for e in service.events(contract.SittingOutChanged)] == [("p3", "disconnected")]
        await disconnect(service, "dc-fold", "p1")  # to act now, facing the big blind
        fold = service.last(contract.ActionTaken)
        assert (fold.seat, fold.action, fold.automatic) == (1, "fold", "disconnected")
        await service.act("dc-fold", hand_id, "p2", "call")
        check = service.last(contract.ActionTaken)
        assert (check.seat, check.action, check.automatic) == (3, "check", "disconnected")
        assert outcomes(service) == [("p1", "folded"), ("p3", "checked")]

        await disconnect(service, "dc-fold", "p3", connected=True)
        back = service.last(contract.SittingOutChanged)
        assert (back.player_id, back.sitting_out, back.reason) == ("p3", False, "reconnected")
        await service.act("dc-fold", hand_id, "p2", "check")
        assert service.to_act().player_id == "p3"  # on the flop, p3 decides again


async def test_p13_2_time_bank_policy_gives_extra_time_then_the_default_action(tmp_path: Path) -> None:
    async with running(tmp_path / "bank.db") as service:
        await service.open_table(
            "dc-bank", action_seconds=20, time_bank_seconds=30, disconnect_policy=policy("time_bank", extra_seconds=45)
        )
        await service.start_hand("dc-bank")
        await disconnect(service, "dc-bank", "p1")
        assert outcomes(service) == [("p1", "time_extended")]
        request = service.to_act()
        assert (request.player_id, request.time_bank_seconds) == ("p1", 75)
        await service.tick(94.9)
        assert not any(a.seat == 1 for a in service.events(contract.ActionTaken))
        await service.tick(0.1)
        fold = service.last(contract.ActionTaken)
        assert (fold.seat, fold.action, fold.automatic) == (1, "fold", "timeout")


async def test_p13_3_protections_are_limited_per_player_across_the_tournament(tmp_path: Path) -> None:
    async with running(tmp_path / "limit.db") as service:
        limited = policy("time_bank", extra_seconds=10, max_protections_per_tournament=1)
        await service.open_table("dc-limit-a", disconnect_policy=limited, tournament_id="cup")
        await service.start_hand("dc-limit-a")
        await disconnect(service, "dc-limit-a", "p1")
        assert outcomes(service) == [("p1", "time_extended")]

        # Another table of the same tournament: p1 used their one protection already.
        await service.open_table("dc-limit-b", disconnect_policy=limited, tournament_id="cup")
        await service.start_hand("dc-limit-b")
        await disconnect(service, "dc-limit-b", "p1")
        assert outcomes(service)[-1] == ("p1", "folded")
        # Another player there still has theirs.
        await disconnect(service, "dc-limit-b", "p2")
        assert outcomes(service)[-1] == ("p2", "time_extended")


async def test_p13_2_a_player_disconnected_between_hands_is_folded_without_using_a_protection(tmp_path: Path) -> None:
    async with running(tmp_path / "between.db") as service:
        await service.open_table("dc-between", disconnect_policy=policy("all_in_protection"))
        await disconnect(service, "dc-between", "p1")
        await service.start_hand("dc-between")
        fold = service.last(contract.ActionTaken)
        assert (fold.seat, fold.action, fold.automatic) == (1, "fold", "disconnected")
        assert outcomes(service) == [("p1", "folded")]


async def test_p13_2_all_in_protection_keeps_the_player_in_for_the_pot_so_far(tmp_path: Path) -> None:
    async with running(tmp_path / "allin.db") as service:
        await service.open_table("dc-allin", disconnect_policy=policy("all_in_protection"))
        service.deck.deal(["AhAd", "KsKd", "QcQd"], board="Qh7s2c3d9h")  # seats 2, 3, 1
        hand_id = await service.start_hand("dc-allin")
        await service.act("dc-allin", hand_id, "p1", "raise", 100)
        await service.act("dc-allin", hand_id, "p2", "call")
        await service.act("dc-allin", hand_id, "p3", "call")
        await service.act("dc-allin", hand_id, "p2", "bet", 200)
        await service.act("dc-allin", hand_id, "p3", "call")
        assert service.to_act().player_id == "p1"  # facing 200 more: the connection drops

        await disconnect(service, "dc-allin", "p1")

        assert outcomes(service) == [("p1", "all_in_protected")]
        # p1 is all-in for their 100: the flop's betting is over without them, the turn comes.
        assert service.last(contract.StreetDealt).street == "turn"
        assert service.to_act().player_id == "p2"
        view = (await service.get("/v1/tables/dc-allin")).json()
        assert view["hand"]["all_in_protected"] == [1]
        assert [s["stack"] for s in view["seats"]] == [900, 700, 700]
        for player in ("p2", "p3", "p2", "p3"):
            await service.act("dc-allin", hand_id, player, "check")

        completed = service.last(contract.HandCompleted)
        assert [(p.amount, p.eligible_seats, p.winner_seats) for p in completed.pots] == [
            (300, [2, 3, 1], [1]),  # the pot so far: p1's three queens win it
            (400, [2, 3], [2]),  # the side pot of the flop bets, without p1
        ]
        assert [(r.player_id, r.start_stack, r.end_stack) for r in completed.results] == [
            ("p2", 1000, 1100),
            ("p3", 1000, 700),
            ("p1", 1000, 1200),  # 900 set aside + 300
        ]
        assert [a.action for a in service.events(contract.ActionTaken) if a.seat == 1] == ["raise"]
        history = (await service.http.get(f"/v1/hands/{hand_id}/phh")).text
        assert "_set_aside = [0, 0, 900]" in history


async def test_p13_2_all_in_protection_returns_a_bet_nobody_else_can_answer(tmp_path: Path) -> None:
    async with running(tmp_path / "headsup.db") as service:
        await service.open_table("dc-hu", stacks=(1000, 1000), disconnect_policy=policy("all_in_protection"))
        service.deck.deal(["KsKd", "AhAd"], board="2h3s8dJc9h")  # seat 2 (big blind), then seat 1 (button)
        hand_id = await service.start_hand("dc-hu")
        await service.act("dc-hu", hand_id, "p1", "call")
        await service.act("dc-hu", hand_id, "p2", "check")
        await service.act("dc-hu", hand_id, "p2", "bet", 100)

        await disconnect(service, "dc-hu", "p1")

        returned = service.last(contract.BetReturned)
        assert (returned.player_id, returned.amount, returned.stack_after, returned.pot_after) == ("p2", 100, 980, 40)
        assert [s.street for s in service.events(contract.StreetDealt)] == ["flop", "turn", "river"]
        completed = service.last(contract.HandCompleted)
        assert [(r.player_id, r.end_stack) for r in completed.results] == [("p2", 980), ("p1", 1020)]
        assert {s.player_id for s in service.last(contract.ShowdownRevealed).shown} == {"p1", "p2"}
