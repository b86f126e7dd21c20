"""The capacity harness's own pieces, without servers: route names, quantiles, the metered client's counting
and its waiting out of refusals, the split of players over load generators, the coupon plan, the options, the
bot's bookkeeping of what it is asked and where it sits (its seat pushed on its lobby socket, REST the fallback),
and how a gateway on the shared port is known to have joined it."""

from __future__ import annotations

import asyncio
import json
import os
import random
import socket
import sys
import time
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "bench"))

import httpx
import pytest
from capacity.bot import CapacityBot, Pace
from capacity.client import MeteredClient, retry_after, spread
from capacity.fleet import slices
from capacity.metrics import BACK_TO_THE_PLAYER, TO_THE_TABLE, Meter, over_time, quantiles, route_of
from capacity.options import CI, Options, from_arguments, parser
from capacity.run import CapacityResult
from capacity.scenarios import coupon_plan
from capacity.seating import Seating
from harness.client import Session
from harness.draw import MATCHES, MIN_STAKE_CENTS, SCORES, label
from harness.processes import listening_ports


def test_routes_name_ids_as_placeholders() -> None:
    assert route_of("POST", "/api/v1/tables/t-1.main.3/actions") == "POST /tables/{id}/actions"
    assert route_of("GET", "/api/v1/players/p-7/tournaments") == "GET /players/{id}/tournaments"
    assert route_of("GET", "/api/v1/players/me") == "GET /players/me"
    assert route_of("POST", "/api/v1/auth/signup") == "POST /auth/signup"


def test_quantiles_by_nearest_rank() -> None:
    found = quantiles([float(n) for n in range(1, 101)])
    assert found == {"p50": 51.0, "p95": 96.0, "p99": 100.0, "max": 100.0}
    assert quantiles([]) == {}


def test_meters_merge_and_give_rates_over_their_span() -> None:
    one, other = Meter(), Meter()
    one.sample("action", 0.5, at=10.0)
    other.sample("action", 1.0, at=12.0)
    other.count("actions sent", 2)
    one.merge(other)
    assert one.series["action"] == [0.5, 1.0]
    assert one.spans["action"] == (9.5, 12.0)
    assert one.rate("action") == pytest.approx(2 / 2.5)
    assert one.counts["actions sent"] == 2


def test_a_series_merged_from_processes_falls_into_windows_by_when_it_was_taken() -> None:
    one, other = Meter(), Meter()
    one.sample("action", 0.5, at=100.0)
    one.sample("action", 0.1, at=131.0)
    other.sample("action", 2.0, at=105.0)
    other.sample("action", 0.3, at=171.0)
    one.merge(other)
    assert over_time(one, "action", since=95.0, window=30.0) == [(0.0, [0.5, 2.0]), (30.0, [0.1]), (60.0, [0.3])]
    assert over_time(one, "coupon", since=95.0, window=30.0) == []


@pytest.mark.parametrize(
    ("status", "headers", "wait"),
    [(429, {}, 1.0), (429, {"Retry-After": "3"}, 3.0), (503, {"Retry-After": "2"}, 2.0), (503, {}, None),
     (503, {"Retry-After": "999"}, 30.0), (500, {"Retry-After": "1"}, None), (200, {}, None)],
)  # fmt: skip
def test_a_refusal_is_a_429_or_a_503_naming_its_wait(status: int, headers: dict[str, str], wait: float | None) -> None:
    assert retry_after(httpx.Response(status, headers=headers)) == wait


def test_refused_clients_come_back_spread_over_half_their_wait_again() -> None:
    rng = random.Random(7)
    pauses = [spread(2.0, rng) for _ in range(1000)]
    assert 2.0 <= min(pauses) < 2.1 and 2.9 < max(pauses) <= 3.0


async def test_the_client_waits_out_refusals_and_counts_them_apart_from_errors() -> None:
    answers = iter([httpx.Response(429, headers={"Retry-After": "0"}), httpx.Response(201), httpx.Response(500)])
    meter = Meter()
    transport = httpx.MockTransport(lambda request: next(answers))
    async with MeteredClient(meter, transport=transport, base_url="http://gateway") as http:
        assert (await http.post("/api/v1/tournaments/t-1/registrations")).status_code == 201
        assert (await http.post("/api/v1/tournaments/t-2/registrations")).status_code == 500
    stats = meter.routes["POST /tournaments/{id}/registrations"]
    assert (stats.refused, stats.ok, stats.server_errors, stats.attempts) == (1, 1, 1, 3)
    result = CapacityResult(Options(), "run", Path("/nonexistent"), meter=meter)
    summary = json.loads(json.dumps(result.summary()))  # what the run writes as summary.json
    assert summary["routes"]["POST /tournaments/{id}/registrations"]["statuses"] == {"500": 1}


async def test_the_client_counts_timeouts() -> None:
    def slow(request: httpx.Request) -> httpx.Response:
        raise httpx.ReadTimeout("slow", request=request)

    meter = Meter()
    async with MeteredClient(meter, transport=httpx.MockTransport(slow), base_url="http://gateway") as http:
        with pytest.raises(httpx.ReadTimeout):
            await http.get("/api/v1/players/me")
    stats = meter.routes["GET /players/me"]
    assert (stats.timeouts, stats.failures) == (1, {"ReadTimeout": 1})


def test_players_are_split_in_contiguous_nearly_equal_slices() -> None:
    assert slices(list(range(7)), 2) == [[0, 1, 2, 3], [4, 5, 6]]
    assert slices([1], 2) == [[1], []]


def test_the_coupon_plan_deals_singles_and_systems_round_the_bettors() -> None:
    plan = coupon_plan(random.Random(1), coupons=103, bettors=10, system_share=0.3)
    coupons = [coupon for own in plan for coupon in own]
    assert len(coupons) == 103 and [len(own) for own in plan] == [11, 11, 11] + [10] * 7
    labels = {label(score) for score in SCORES}
    systems = 0
    for coupon in coupons:
        assert len(coupon.picks) == MATCHES
        assert all(set(picks) <= labels and list(picks) == sorted(picks) for picks in coupon.picks)
        bets = 1
        for picks in coupon.picks:
            bets *= len(picks)
        assert coupon.amount % (MIN_STAKE_CENTS * bets) == 0  # whole stakes per bet (T-2.4)
        systems += bets > 1
    assert 10 < systems < 60


def test_without_a_scenario_the_ci_preset_runs_and_options_override_it() -> None:
    assert from_arguments(parser().parse_args([])) == CI
    chosen = from_arguments(parser().parse_args(["--scenario", "sng", "--tables", "4", "--shards", "3"]))
    assert (chosen.scenario, chosen.tables, chosen.shards, chosen.window, chosen.think_range) == (
        "sng", 4, 3, 10.0, (2.0, 8.0)
    )  # fmt: skip
    with pytest.raises(SystemExit):
        from_arguments(parser().parse_args(["--scenario", "mtt", "--players", "9"]))


def test_human_pace_speeds_up_after_its_duration_and_the_action_clock_outlasts_it() -> None:
    human = Options(scenario="mtt", duration_seconds=60)
    assert (human.think_range, human.human_seconds, human.blind_level_seconds) == ((2.0, 8.0), 60, 60)
    assert human.action_seconds > 8
    assert Options(scenario="mtt", fast=True).human_seconds is None
    # Sit'n'gos alike: the latency bounds are the human pace's; `--fast` is the stress of every table at once.
    assert (Options(scenario="sng").human_seconds, Options(scenario="sng", fast=True).think_range) == (
        300.0,
        (0.0, 0.2),
    )
    assert Options(scenario="toto-rush").human_seconds is None
    sped_up = Pace((5.0, 5.0), (0.1, 0.1), fast_after=0.0)
    assert (sped_up.draw(random.Random(1)), sped_up.phase()) == (0.1, "fast")
    assert Pace((5.0, 5.0), (0.1, 0.1), fast_after=time.monotonic() + 60).phase() == "human"
    assert Pace((5.0, 5.0)).phase() is None


def test_a_tournament_is_called_stalled_only_after_a_hand_at_the_slowest_pace_could_have_ended() -> None:
    """At human pace the first hands of a big tournament start together and take minutes: a flat 90 s called
    the 3,000-player run stalled before any of them ended."""
    assert Options(scenario="mtt", duration_seconds=60).stall_after == 4 * 9 * 8.0
    assert Options(scenario="mtt", fast=True).stall_after == 90.0
    assert Options(scenario="mtt", fast=True, stall_seconds=30.0).stall_after == 30.0


def _bot() -> CapacityBot:
    session = Session(httpx.AsyncClient(), "http://gateway")
    session.principal = {"id": "me"}
    bot = CapacityBot(session, "t-1", random.Random(1), Meter())
    bot.pace = Pace((60.0, 60.0))  # thinks long: nothing is sent during the test
    bot._table = "t-1.1"
    return bot


def _event(event: str, **payload: Any) -> tuple[str, dict[str, Any]]:
    return event, {"table_id": "t-1.1", **payload}


async def test_a_bot_forgets_a_request_answered_meanwhile() -> None:
    """Replayed history holds old requests: one followed by an action (or a new hand) is not answered."""
    bot = _bot()
    bot._on(*_event("table.action.requested", player_id="me", hand_id="h-1"))
    assert bot._pending is not None and len(bot._jobs) == 1
    bot._on(*_event("table.action.taken", player_id="me", hand_id="h-1", automatic="timeout"))
    assert bot._pending is None and bot.meter.counts["actions timed out"] == 1
    bot._on(*_event("table.action.requested", player_id="me", hand_id="h-2"))
    bot._on(*_event("table.hand.completed", hand_id="h-2"))
    assert bot._pending is None
    for job in list(bot._jobs):
        job.cancel()
    await asyncio.gather(*bot._jobs, return_exceptions=True)


def test_a_bots_action_latency_is_split_where_the_engine_applied_it() -> None:
    """The event's `occurred_at` (the engine's applying the action) splits the latency into its way to the table
    and its way back: a slow tail can be told apart as the engine's queue or the gateways' fan-out."""
    bot = _bot()
    sent = time.time() - 1.0
    bot._sent_at, bot._sent_wall = time.monotonic() - 1.0, sent
    applied = datetime.fromtimestamp(sent + 0.6, UTC).isoformat()
    bot._on(*_event("table.action.taken", player_id="me", hand_id="h-1", action="call"), applied)
    [to_table], [back] = bot.meter.series[TO_THE_TABLE], bot.meter.series[BACK_TO_THE_PLAYER]
    # The bot's own sampling takes microseconds; 0.25 s of slack for a loaded machine's scheduling.
    assert to_table == pytest.approx(0.6, abs=1e-3) and back == pytest.approx(0.4, abs=0.25)
    assert bot.meter.series["action"] == [pytest.approx(to_table + back, abs=0.25)]


def test_a_bot_moved_back_to_a_table_it_left_stays_there() -> None:
    """Subscribing again replays both its unseat and its new seat there: it is still at that table."""
    bot = _bot()
    bot._on(*_event("table.player.unseated", player_id="me", reason="moved"))
    assert bot._away
    bot._on(*_event("table.player.seated", player={"player_id": "me", "seat": 3, "stack": 900}))
    assert not bot._away
    bot._on(*_event("table.player.unseated", player_id="someone else", reason="busted"))
    assert not bot._away
    bot._on(*_event("table.action.requested", player_id="me", hand_id="h-1", table_id="another table"))
    assert bot._pending is None


def _seating(entries: list[dict[str, Any]] | None = None) -> tuple[Seating, list[str]]:
    """A bot's seating whose REST reads answer `entries` (its tournaments); the list records the paths read."""
    read: list[str] = []

    def director(request: httpx.Request) -> httpx.Response:
        read.append(request.url.path)
        return httpx.Response(200, json=entries or [])

    http = httpx.AsyncClient(transport=httpx.MockTransport(director), base_url="http://gateway")
    session = Session(http, "http://gateway")
    session.principal = {"id": "me"}
    return Seating(session, "t-1", random.Random(1), Meter()), read


def _opened(table_id: str, *players: str, tournament_id: str = "t-1") -> dict[str, Any]:
    seats = [{"seat": n, "player_id": player, "stack": 1500} for n, player in enumerate(players, start=1)]
    return {"table_id": table_id, "tournament_id": tournament_id, "seats": seats}


async def test_a_bot_learns_its_tables_from_the_lobby_push_without_reading_rest() -> None:
    seating, read = _seating()
    seating.hear("table.table.opened", _opened("t-1.2", "someone else"))
    seating.hear("table.table.opened", _opened("t-2.1", "me", tournament_id="t-2"))
    seating.hear("tournament.player.registered", {"tournament_id": "t-1", "player_id": "x", "registered": 40})
    assert seating.table is None
    seating.hear("table.table.opened", _opened("t-1.1", "someone else", "me"))
    assert await seating.next_table(None) == "t-1.1"
    seating.hear("table.player.seated", {"table_id": "t-1.3", "tournament_id": "t-1", "player": {"player_id": "me"}})
    assert await seating.next_table("t-1.1") == "t-1.3"  # moved: the new seat may come before the unseat
    seating.hear("tournament.tournament.finished", {"tournament_id": "t-1"})
    assert await seating.next_table("t-1.3") is None
    assert read == [] and seating.meter.counts["tables pushed on the lobby socket"] == 2


async def test_after_its_lobby_socket_reconnects_a_bot_reads_its_place_over_rest_once() -> None:
    seating, read = _seating([{"tournament_id": "t-1", "status": "running", "table_id": "t-1.4", "position": None}])
    seating.resync = True
    assert await seating.next_table(None) == "t-1.4"
    assert read == ["/api/v1/players/me/tournaments"] and not seating.resync


async def test_a_bot_out_of_the_tournament_learns_it_over_rest() -> None:
    seating, _ = _seating([{"tournament_id": "t-1", "status": "running", "table_id": "t-1.4", "position": 17}])
    seating.resync = True
    assert await seating.next_table("t-1.4") is None


def test_a_process_serves_a_shared_port_once_it_listens_not_once_it_bound_it() -> None:
    """The runner binds the shared port at start-up and listens once the app has started: only then does the
    kernel hand the process connections, and only then does the harness count the gateway as ready."""
    with socket.socket() as sock:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEPORT, 1)
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
        assert port not in listening_ports(os.getpid())
        sock.listen()
        assert port in listening_ports(os.getpid())
