"""Seat holds and the answers to their payments, in batches (issue 14): the registrations of one tournament that
come in together are held in one unit of work, and their wallet answers applied in one, each request still
answered on its own (P-3: registration; P-3.1: a sit'n'go starts when its last seat is paid)."""

from __future__ import annotations

from pathlib import Path

from director_harness import CONCESSIONAIRE, Platform, running
from platform_kit.errors import ProblemError
from platform_kit.events import tournament as events
from tournament_director.adapters import tournaments
from tournament_director.adapters.money_steps import MoneyStep, StepStatus
from tournament_director.adapters.tournaments import RegistrationStatus
from tournament_director.service import money
from tournament_director.service.commands import Registered, RegisterPlayer
from tournament_director.service.registration import hold_seats, on_entries_paid

PRICE = {"prize_part_cents": 900, "fee_cents": 100}
FUNDS = 5_000


def request(t: str, player: str) -> RegisterPlayer:
    return RegisterPlayer(tournament_id=t, player_id=player, concessionaire_id=CONCESSIONAIRE, entry="buy_in")


def code(outcome: object) -> str:
    assert isinstance(outcome, ProblemError), outcome
    return outcome.code


async def test_p3_one_batch_holds_each_seat_once_refuses_a_repeat_and_the_seat_past_the_last(tmp_path: Path) -> None:
    async with running(tmp_path) as platform:
        t = (await platform.create({"template": "heads_up_sit_and_go", "name": "HU", "buy_in": PRICE}))["tournament_id"]
        director = platform.service

        outcomes = await hold_seats(director, t, [request(t, p) for p in ("ann", "bob", "ann", "cy")])

        ann, bob = outcomes[0], outcomes[1]
        assert isinstance(ann, MoneyStep) and isinstance(bob, MoneyStep)
        assert (ann.player_id, bob.player_id, ann.status, bob.status) == (
            "ann",
            "bob",
            StepStatus.PENDING,
            StepStatus.PENDING,
        )
        assert [code(outcomes[2]), code(outcomes[3])] == ["already_registered", "tournament_full"]
        async with director.runtime.units.reading() as session:
            held = await tournaments.registrations_by_player(session, t, ["ann", "bob", "cy"])
        assert {p: r.status for p, r in held.items()} == {
            "ann": RegistrationStatus.PAYING,
            "bob": RegistrationStatus.PAYING,
        }
        closed = await hold_seats(director, t, [request(t, "cy")])
        assert [code(c) for c in closed] == ["tournament_full"]


async def test_p3_p3_1_answers_applied_together_number_the_players_in_turn_free_a_refused_seat_and_start_once(
    tmp_path: Path,
) -> None:
    async with running(tmp_path) as platform:
        t = (await platform.create({"template": "heads_up_sit_and_go", "name": "HU", "buy_in": PRICE}))["tournament_id"]
        director = platform.service
        for player in ("ann", "bob"):
            await platform.fund(player, FUNDS)
        # dan has no account: the wallet refuses his entry (insufficient_funds) and his seat is freed.
        first = await hold_seats(director, t, [request(t, "ann"), request(t, "dan")])
        answers = [(step, await director.calls.send(step.call)) for step in first if isinstance(step, MoneyStep)]
        assert len(answers) == 2 and all(answer is not None for _, answer in answers)

        driven = await money.apply_answers(director, [(s, a) for s, a in answers if a is not None], on_entries_paid)

        assert [(step.player_id, step.status, outcome) for step, outcome in driven] == [
            ("ann", StepStatus.DONE, Registered(t, "ann", "buy_in", 1)),
            ("dan", StepStatus.REFUSED, None),
        ]
        (bob,) = await hold_seats(director, t, [request(t, "bob")])  # dan's seat is free again
        assert isinstance(bob, MoneyStep)
        answer = await director.calls.send(bob.call)
        assert answer is not None
        # The same answer listed twice in a batch (two drivers of one step) is applied once.
        again = await money.apply_answers(director, [(bob, answer), (bob, answer)], on_entries_paid)
        assert [outcome for _, outcome in again] == [Registered(t, "bob", "buy_in", 2)] * 2

        await platform.published()
        numbered = [
            (e.player_id, e.registered) for e in platform.events(events.PlayerRegistered) if e.tournament_id == t
        ]
        assert numbered == [("ann", 1), ("bob", 2)]
        # The last seat paid: the sit'n'go starts (P-3.1), once.
        assert await platform.until(lambda: _started(platform, t)) == 1
        assert await _started(platform, t) == 1
        assert await platform.balance("ann") == await platform.balance("bob") == FUNDS - 1_000
        assert await platform.escrow(t) == 1_800 and await platform.reconciled()


async def _started(platform: Platform, t: str) -> int:
    await platform.published()
    return sum(1 for e in platform.events(events.TournamentStarted) if e.tournament_id == t)
