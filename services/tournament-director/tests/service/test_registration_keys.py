"""Idempotency-Keys of registrations, unregistrations and purchases are bound to the request they came with.

A key belongs to its caller (the principal's role, concessionaire and id): the same key from another caller is
another key, and never sees the first caller's answer. Under one caller a key names one request — its
operation, tournament, player and entry — and answers it with the first answer, status and body, however often
it is repeated; the same key with another request is refused with 409 `idempotency_key_reused`. Concurrent
duplicates wait for the first one's answer.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from datetime import timedelta
from pathlib import Path
from typing import Any

import httpx
import pytest
from director_harness import OPERATOR, TOKEN, LosesAnswers, Platform, player_headers, running
from platform_kit.errors import ProblemError
from platform_kit.events import tournament as events
from platform_kit.testing import eventually
from tournament_director.adapters import idempotency
from tournament_director.service import idempotent, registration
from tournament_director.service.commands import RegisterPlayer
from tournament_director.service.idempotent import Outcome, run_once

PRICE = {"prize_part_cents": 900, "fee_cents": 100}
FUNDS = 5_000


@pytest.fixture(params=["sqlite_url", pytest.param("postgres_url", marks=pytest.mark.postgres)])
def director_database(request: pytest.FixtureRequest) -> str:
    url: str = request.getfixturevalue(request.param)
    return url


@pytest.fixture
async def platform(tmp_path: Path, director_database: str) -> AsyncIterator[Platform]:
    async with running(tmp_path, director_database=director_database) as started:
        yield started


async def six_max(platform: Platform, name: str = "Six") -> str:
    created = await platform.create({"template": "six_max_sit_and_go", "name": name, "buy_in": PRICE})
    return str(created["tournament_id"])


async def register(
    platform: Platform, tournament_id: str, player: str, key: str, caller: dict[str, str] | None = None
) -> httpx.Response:
    return await platform.director.post(
        f"/internal/v1/tournaments/{tournament_id}/registrations",
        json={"player_id": player, "concessionaire_id": "c1", "entry": "buy_in"},
        headers={"X-Internal-Token": TOKEN, "Idempotency-Key": key, **(caller or player_headers(player))},
    )


async def unregister(platform: Platform, tournament_id: str, player: str, key: str) -> httpx.Response:
    return await platform.director.delete(
        f"/internal/v1/tournaments/{tournament_id}/registrations/{player}",
        headers={"X-Internal-Token": TOKEN, "Idempotency-Key": key, **player_headers(player)},
    )


def answer(response: httpx.Response) -> tuple[int, Any]:
    return response.status_code, response.json()


async def test_the_same_key_and_request_gets_the_first_answer_and_registers_once(platform: Platform) -> None:
    t = await six_max(platform)
    for player in ("ann", "bob"):
        await platform.fund(player, FUNDS)
    first = await register(platform, t, "ann", "key-1")
    await register(platform, t, "bob", "key-2")  # the count of registered players moves on meanwhile

    again = await register(platform, t, "ann", "key-1")

    assert answer(first) == (201, {"tournament_id": t, "player_id": "ann", "entry": "buy_in", "registered": 1})
    assert answer(again) == answer(first)
    assert again.headers["Idempotent-Replayed"] == "true"
    assert (await platform.tournament(t))["registered"] == 2
    assert await platform.balance("ann") == FUNDS - 1_000


async def test_the_same_key_for_another_tournament_is_refused_and_registers_nothing(platform: Platform) -> None:
    first, second = await six_max(platform, "First"), await six_max(platform, "Second")
    await platform.fund("ann", FUNDS)
    assert (await register(platform, first, "ann", "key-1")).status_code == 201

    reused = await register(platform, second, "ann", "key-1")

    assert reused.status_code == 409 and reused.json()["code"] == "idempotency_key_reused"
    assert reused.headers["content-type"] == "application/problem+json"
    assert (await platform.tournament(second))["registered"] == 0
    assert await platform.balance("ann") == FUNDS - 1_000


async def test_one_callers_key_for_another_player_is_refused_and_another_callers_key_is_its_own(
    platform: Platform,
) -> None:
    """An operator's key names one registration; a player's key is the player's alone (no answer leaks)."""
    t = await six_max(platform)
    for player in ("ann", "bob", "cid"):
        await platform.fund(player, FUNDS)
    by_operator = await register(platform, t, "ann", "shared", OPERATOR)
    assert by_operator.status_code == 201, by_operator.text

    other_player = await register(platform, t, "bob", "shared", OPERATOR)
    own = await register(platform, t, "cid", "shared")  # cid's own key "shared", unrelated to the operator's

    assert other_player.status_code == 409 and other_player.json()["code"] == "idempotency_key_reused"
    assert "ann" not in other_player.text
    assert answer(own) == (201, {"tournament_id": t, "player_id": "cid", "entry": "buy_in", "registered": 2})
    assert await platform.balance("bob") == FUNDS and await platform.balance("cid") == FUNDS - 1_000


async def test_twenty_concurrent_identical_registrations_register_once_and_answer_alike(platform: Platform) -> None:
    t = await six_max(platform)
    await platform.fund("ann", FUNDS)

    answers = await asyncio.gather(*(register(platform, t, "ann", "key-1") for _ in range(20)))

    assert [answer(response) for response in answers] == [answer(answers[0])] * 20
    assert answer(answers[0]) == (201, {"tournament_id": t, "player_id": "ann", "entry": "buy_in", "registered": 1})
    assert (await platform.tournament(t))["registered"] == 1
    assert await platform.balance("ann") == FUNDS - 1_000


async def test_two_runs_of_one_request_that_both_found_no_seat_answer_alike_and_register_once(
    platform: Platform, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A key's request taken for dead while it was only slow runs twice (service/idempotent.py); the two runs may
    both look before either holds the seat. The one that then finds the seat held by the other answers as the
    request's repeat, not 409 `already_registered` (a client told that of its own registration, capacity run)."""
    t = await six_max(platform)
    await platform.fund("ann", FUNDS)
    looks, both_looked = [], asyncio.Event()
    look = registration._tournament

    async def looked_together(*arguments: Any) -> Any:
        found = await look(*arguments)
        looks.append(found)
        if len(looks) <= 2:  # the first two looks only: the run refused looks again after the other's hold
            if len(looks) == 2:
                both_looked.set()
            async with asyncio.timeout(30):  # generous: only the other run's look, on a loaded machine
                await both_looked.wait()
        return found

    monkeypatch.setattr(registration, "_tournament", looked_together)
    command = RegisterPlayer(
        tournament_id=t, player_id="ann", concessionaire_id="c1", entry="buy_in", client_key="key-1"
    )

    first, second = await asyncio.gather(*(registration.register(platform.service, command) for _ in range(2)))

    assert first == second and first.registered == 1
    assert [previous for _, previous in looks[:2]] == [None, None]  # both looked before either held the seat
    assert (await platform.tournament(t))["registered"] == 1
    assert await platform.balance("ann") == FUNDS - 1_000
    await platform.published()
    assert [e.player_id for e in platform.events(events.PlayerRegistered)] == ["ann"]


async def test_an_unregistration_key_answers_its_refund_again_and_not_another_tournament(platform: Platform) -> None:
    first, second = await six_max(platform, "First"), await six_max(platform, "Second")
    await platform.fund("ann", FUNDS)
    for t, key in ((first, "in-1"), (second, "in-2")):
        assert (await register(platform, t, "ann", key)).status_code == 201

    left = await unregister(platform, first, "ann", "out-1")
    again = await unregister(platform, first, "ann", "out-1")
    reused = await unregister(platform, second, "ann", "out-1")

    assert answer(left) == answer(again) == (200, {"tournament_id": first, "player_id": "ann", "refunded_cents": 1_000})
    assert reused.status_code == 409 and reused.json()["code"] == "idempotency_key_reused"
    assert (await platform.tournament(second))["registered"] == 1
    assert await platform.balance("ann") == FUNDS - 1_000


async def test_a_registration_answered_try_again_keeps_no_answer_and_its_key_completes_it(tmp_path: Path) -> None:
    """503 (the wallet's answer lost) is no answer to keep: the same key then gets the registration, paid once."""
    async with running(tmp_path, wrap_wallet=LosesAnswers) as platform:
        t = await six_max(platform)
        await platform.fund("ann", FUNDS)

        lost = await register(platform, t, "ann", "key-1")
        again = await register(platform, t, "ann", "key-1")

        assert lost.status_code == 503 and lost.json()["code"] == "wallet_unavailable"
        assert answer(again) == (201, {"tournament_id": t, "player_id": "ann", "entry": "buy_in", "registered": 1})
        assert "Idempotent-Replayed" not in again.headers  # run again, not replayed
        assert await platform.balance("ann") == FUNDS - 1_000


class WalletHeld(httpx.AsyncBaseTransport):
    """The wallet, except that the buy-ins reach it only once `answer` is set: a wallet slower than any
    deadline."""

    def __init__(self, wallet: httpx.AsyncBaseTransport) -> None:
        self.wallet = wallet
        self.answer = asyncio.Event()

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        if request.url.path.endswith("/entries"):
            await self.answer.wait()
        return await self.wallet.handle_async_request(request)


async def test_a_registration_past_its_deadline_answers_outcome_pending_and_its_key_learns_the_outcome(
    tmp_path: Path,
) -> None:
    """Issue 14: a registration waiting for a slow wallet answers 503 `outcome_pending` with Retry-After within
    `keyed_request_deadline_seconds` (never a gateway's 504 after the money moved), and runs on: once the wallet
    answered, the same request with the same key answers 201, the player registered once and charged once."""
    held: list[WalletHeld] = []

    def hold(wallet: httpx.AsyncBaseTransport) -> httpx.AsyncBaseTransport:
        held.append(WalletHeld(wallet))
        return held[0]

    async with running(tmp_path, wrap_wallet=hold, keyed_request_deadline_seconds=1.0) as platform:
        t = await six_max(platform)
        await platform.fund("ann", FUNDS)

        pending = await register(platform, t, "ann", "key-1")
        assert (pending.status_code, pending.json()["code"]) == (503, "outcome_pending")
        assert int(pending.headers["Retry-After"]) >= 1
        assert (await platform.tournament(t))["registered"] == 0 and await platform.balance("ann") == FUNDS
        held[0].answer.set()
        await asyncio.gather(*platform.service.outliving)  # the request, running on to its end
        again = await register(platform, t, "ann", "key-1")

        assert answer(again) == (201, {"tournament_id": t, "player_id": "ann", "entry": "buy_in", "registered": 1})
        assert again.headers["Idempotent-Replayed"] == "true"  # the first request's answer: it ran once
        assert await platform.balance("ann") == FUNDS - 1_000 and await platform.escrow(t) == 900
        await platform.published()
        assert [e.player_id for e in platform.events(events.PlayerRegistered)] == ["ann"]


class Held:
    """A command that runs until released, answering `body`."""

    def __init__(self, body: dict[str, Any]) -> None:
        self.body = body
        self.started = asyncio.Event()
        self.release = asyncio.Event()

    async def __call__(self) -> dict[str, Any]:
        self.started.set()
        await self.release.wait()
        return self.body


async def test_a_repeat_of_a_request_still_running_is_answered_in_flight_then_replayed(tmp_path: Path) -> None:
    async with running(tmp_path, idempotency_wait_seconds=0.1) as platform:
        director, first = platform.service, Held({"n": 1})
        running_first = asyncio.create_task(run_once(director, "player::ann", "k", "print", 201, first))
        await first.started.wait()

        with pytest.raises(ProblemError) as in_flight:
            await run_once(director, "player::ann", "k", "print", 201, Held({"n": 2}))
        first.release.set()
        done = await running_first
        repeated = await run_once(director, "player::ann", "k", "print", 201, Held({"n": 3}))

        assert (in_flight.value.status, in_flight.value.code) == (409, "idempotency_key_in_flight")
        assert in_flight.value.headers == {"Retry-After": "1"}  # a "come back later", as the gateway relays it
        assert done == Outcome(201, {"n": 1}, replayed=False)
        assert repeated == Outcome(201, {"n": 1}, replayed=True)


async def test_a_repeat_waiting_in_the_same_process_is_woken_by_the_answer_not_by_polling(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Under a retry storm hundreds of repeats wait for first requests still running; a look at the key is a
    transaction each, taking the connections those first requests need to finish. A repeat of a request this
    process runs looks once, sleeps until that request is over, and looks once more."""
    looks: list[str] = []
    claim = idempotent._claim

    async def counted(director: Any, scope: str, key: str, fingerprint: str) -> Any:
        looks.append(key)
        return await claim(director, scope, key, fingerprint)

    monkeypatch.setattr(idempotent, "_claim", counted)
    async with running(tmp_path, idempotency_wait_seconds=30) as platform:
        director, first = platform.service, Held({"n": 1})
        running_first = asyncio.create_task(run_once(director, "player::ann", "k", "print", 201, first))
        await first.started.wait()
        repeat = asyncio.create_task(run_once(director, "player::ann", "k", "print", 201, Held({"n": 2})))
        await eventually(lambda: _value(len(looks) == 2))  # the first's claim, then the repeat's look
        await asyncio.sleep(0.5)  # a bounded pause to show nothing happens in it: polling would look ~5 times
        assert len(looks) == 2 and not repeat.done()
        first.release.set()

        assert await running_first == Outcome(201, {"n": 1}, replayed=False)
        assert await repeat == Outcome(201, {"n": 1}, replayed=True)
        assert len(looks) == 3  # woken once, looked once more, replayed


async def _value(value: bool) -> bool:
    return value


async def test_a_claim_left_by_a_request_that_died_is_taken_over_after_the_retry_time(tmp_path: Path) -> None:
    async with running(tmp_path, idempotency_wait_seconds=0.1) as platform:
        director = platform.service
        async with director.runtime.db.transaction() as session:  # claimed, never answered: its request died
            await idempotency.claim(session, "player::ann", "k", "print", "dead", director.now())
        with pytest.raises(ProblemError):
            await run_once(director, "player::ann", "k", "print", 201, Held({"n": 1}))

        platform.clock.advance(timedelta(seconds=director.settings.money_retry_seconds))
        again = Held({"n": 2})
        again.release.set()

        assert await run_once(director, "player::ann", "k", "print", 201, again) == Outcome(201, {"n": 2}, False)


async def test_a_slow_request_whose_claim_was_taken_over_answers_what_the_other_answered(tmp_path: Path) -> None:
    """One answer per key even when a request thought dead answers after all."""
    async with running(tmp_path) as platform:
        director, slow = platform.service, Held({"n": 1})
        running_slow = asyncio.create_task(run_once(director, "player::ann", "k", "print", 201, slow))
        await slow.started.wait()
        platform.clock.advance(timedelta(seconds=director.settings.money_retry_seconds))
        fast = Held({"n": 2})
        fast.release.set()

        taken_over = await run_once(director, "player::ann", "k", "print", 201, fast)
        slow.release.set()

        assert taken_over == Outcome(201, {"n": 2}, replayed=False)
        assert await running_slow == Outcome(201, {"n": 2}, replayed=True)


async def test_answers_past_their_retention_are_purged(tmp_path: Path) -> None:
    async with running(tmp_path) as platform:
        t = await six_max(platform)
        await platform.fund("ann", FUNDS)
        assert (await register(platform, t, "ann", "key-1")).status_code == 201
        retention = timedelta(hours=platform.service.settings.idempotency_retention_hours)
        purge = platform.director_app.state.services.key_retention.purge_expired  # the kit's, every interval

        platform.clock.advance(retention - timedelta(seconds=1))
        await purge()
        kept = await stored(platform, "key-1")
        platform.clock.advance(timedelta(seconds=2))
        await purge()

        assert kept is not None and kept.status == 201
        assert await stored(platform, "key-1") is None
        assert "tournament_idempotency_keys_purged_total 1.0" in (await platform.director.get("/metrics")).text


async def stored(platform: Platform, key: str) -> idempotency.StoredKey | None:
    async with platform.service.runtime.db.transaction() as session:
        return await idempotency.stored(session, "player:c1:ann", key)


async def test_a_cancellation_key_answers_the_first_answer_whole_and_not_another_tournament(tmp_path: Path) -> None:
    async with running(tmp_path) as platform:
        first, second = await six_max(platform, "First"), await six_max(platform, "Second")
        await platform.fund("ann", FUNDS)
        assert (await register(platform, first, "ann", "in-1")).status_code == 201
        reason = {"reason": "server fault"}

        cancelled = await platform.post(f"/internal/v1/tournaments/{first}/cancellation", reason, OPERATOR, "c-1")
        again = await platform.post(f"/internal/v1/tournaments/{first}/cancellation", reason, OPERATOR, "c-1")
        reused = await platform.post(f"/internal/v1/tournaments/{second}/cancellation", reason, OPERATOR, "c-1")

        assert cancelled.status_code == 200, cancelled.text
        assert cancelled.json()["refunds"] == [{"player_id": "ann", "cash_cents": 1_000, "tickets": 0}]
        assert answer(again) == answer(cancelled)
        assert reused.status_code == 409 and reused.json()["code"] == "idempotency_key_reused"
        assert (await platform.tournament(second))["status"] == "registering"


async def test_past_the_keyed_requests_in_flight_one_more_is_refused_at_once_and_its_key_runs_it_later(
    tmp_path: Path, sqlite_url: str
) -> None:
    """Overload degrades (issue 14): a registration past the limit answers 503 `director_busy` with Retry-After
    before anything is written, so the same key, repeated once there is room, registers and charges once."""
    at_once = {"keyed_requests_in_flight": 1, "keyed_requests_wait_seconds": 0}
    async with running(tmp_path, director_database=sqlite_url, **at_once) as platform:
        t = await six_max(platform)
        await platform.fund("ann", FUNDS)
        async with platform.service.keyed_requests.admit():  # the one place, taken by a request still running
            refused = await register(platform, t, "ann", "key-1")

        admitted = await register(platform, t, "ann", "key-1")

        assert refused.status_code == 503 and refused.json()["code"] == "director_busy"
        assert int(refused.headers["Retry-After"]) >= 1
        assert answer(admitted) == (201, {"tournament_id": t, "player_id": "ann", "entry": "buy_in", "registered": 1})
        assert "Idempotent-Replayed" not in admitted.headers  # the refused request had claimed nothing
        assert await platform.balance("ann") == FUNDS - 1_000
