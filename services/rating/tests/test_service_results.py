"""Ratings from `tournament.tournament.finished` through the running service (P-11.1, P-11.2, P-11.8):
points per award, each result applied exactly once, and the rating on any day as a query."""

from __future__ import annotations

from datetime import UTC, date, datetime, timedelta
from typing import Any

from platform_kit.bus import Envelope
from rating.domain import Award, decay, rating_as_of, to_points, tournament_points
from rating.domain.fixed_point import div_round_half_even
from rating.domain.points import tied_points
from rating_service_support import Service, finished

D = date(2025, 3, 1)  # the day the sample tournaments finish (21:00 UTC = 22:00 in Rome)


async def rating(service: Service, player: str, day: date = D) -> dict[str, Any]:
    response = await service.http.get(f"/internal/v1/players/{player}/rating", params={"day": day.isoformat()})
    assert response.status_code == 200, response.text
    return dict(response.json())


def points(micro: int) -> str:
    return str(to_points(micro))


async def test_p11_1_a_finished_tournament_rates_its_players(service: Service) -> None:
    await service.publish(finished("t1", ["alice", "bob", "carol", "dave"], pool_cents=10_000))
    # Pool EUR 100: 4th place -> sqrt(100) / sqrt(4) = 5 points (the example of P-11.1); 1st -> 10.
    assert (await rating(service, "dave"))["rating"] == "5.000000"
    assert (await rating(service, "alice"))["rating"] == "10.000000"
    history = (await rating(service, "dave"))["history"]
    assert [(h["tournament_id"], h["position"], h["pool_cents"], h["points"]) for h in history] == [
        ("t1", 4, 10_000, "5.000000")
    ]


async def test_p11_1_p11_8_the_guarantee_overlay_earns_no_points(service: Service) -> None:
    await service.publish(finished("t1", ["alice", "bob"], pool_cents=10_000, overlay_cents=990_000))
    assert (await rating(service, "alice"))["rating"] == "10.000000"


async def test_p2_4_players_tied_over_positions_share_their_points(service: Service) -> None:
    await service.publish(finished("t1", [("alice", 1), ("bob", 2), ("carol", 2)], pool_cents=10_000))
    # Positions 2 and 3 are worth sqrt(50) and sqrt(33.3…) points: each tied player gets their mean.
    shared = tied_points(10_000, 2, 2)
    assert shared == div_round_half_even(tournament_points(10_000, 2) + tournament_points(10_000, 3), 2)
    assert (await rating(service, "bob"))["rating"] == points(shared)
    assert (await rating(service, "carol"))["rating"] == points(shared)


async def test_p11_2_every_day_starts_with_98_percent_of_the_previous_days_rating(service: Service) -> None:
    await service.publish(finished("t1", ["alice"], pool_cents=10_000))
    assert (await rating(service, "alice", D - timedelta(days=1)))["rating"] == "0.000000"
    assert (await rating(service, "alice", D))["rating"] == "10.000000"
    assert (await rating(service, "alice", D + timedelta(days=1)))["rating"] == "9.800000"
    ten_days = await rating(service, "alice", D + timedelta(days=10))
    assert ten_days["rating"] == points(decay(10_000_000, 10))
    assert ten_days["history"][0]["rating_at_end_of_day"] == "10.000000"


async def test_p11_2_a_tournament_counts_on_its_finish_date_in_rome(service: Service) -> None:
    # 23:30 UTC on 1 March is 00:30 on 2 March in Rome.
    await service.publish(finished("t1", ["alice"], at=datetime(2025, 3, 1, 23, 30, tzinfo=UTC)))
    assert (await rating(service, "alice", D))["rating"] == "0.000000"
    assert (await rating(service, "alice", D + timedelta(days=1)))["history"][0]["day"] == "2025-03-02"


async def test_p11_2_a_late_result_counts_as_if_it_had_arrived_in_order(service: Service) -> None:
    early = finished("t-early", ["alice", "bob"], pool_cents=40_000, at=datetime(2025, 2, 10, 20, 0, tzinfo=UTC))
    late = finished("t-late", ["bob", "alice"], pool_cents=90_000)
    await service.publish(late)
    await service.publish(early)  # dated before the result already counted
    awards = [
        Award("alice", "t-early", date(2025, 2, 10), tournament_points(40_000, 1)),
        Award("alice", "t-late", D, tournament_points(90_000, 2)),
    ]
    day = D + timedelta(days=3)
    assert (await rating(service, "alice", day))["rating"] == points(rating_as_of("alice", awards, day))
    history = (await rating(service, "alice", day))["history"]
    assert [h["tournament_id"] for h in history] == ["t-early", "t-late"]


async def test_p11_2_the_same_message_delivered_twice_is_applied_once(service: Service) -> None:
    envelope = Envelope.wrap(finished("t1", ["alice", "bob"]), producer="tournament-director")
    await service.deliver(envelope)
    await service.deliver(envelope)  # a redelivery: the inbox drops it
    assert len((await rating(service, "alice"))["history"]) == 1
    assert (await rating(service, "alice"))["rating"] == "10.000000"
    assert len(await service.published("rating.rating.updated")) == 2


async def test_p11_2_the_same_result_published_again_is_applied_once(service: Service) -> None:
    await service.publish(finished("t1", ["alice", "bob"]))
    await service.publish(finished("t1", ["alice", "bob"]))  # another message id: idempotent by tournament id
    assert (await rating(service, "alice"))["rating"] == "10.000000"
    assert len(await service.published("rating.rating.updated")) == 2
    assert service.dead_letters() == []


async def test_a_different_result_for_a_rated_tournament_is_refused_and_dead_lettered(service: Service) -> None:
    await service.publish(finished("t1", ["alice", "bob"]))
    await service.publish(finished("t1", ["bob", "alice"]))
    await service.publish(finished("t1", ["alice", "bob", "carol"]))  # same awards for alice and bob, one more
    assert [envelope.type for envelope in service.dead_letters()] == ["tournament.tournament.finished"] * 2
    assert (await rating(service, "alice"))["rating"] == "10.000000"
    assert (await rating(service, "carol"))["history"] == []


async def test_a_ranking_with_a_gap_is_dead_lettered_without_effect(service: Service) -> None:
    await service.publish(finished("t1", [("alice", 1), ("bob", 3)]))
    assert len(service.dead_letters()) == 1
    assert (await rating(service, "alice"))["history"] == []


async def test_each_award_is_published_as_a_rating_update(service: Service) -> None:
    await service.publish(finished("t1", ["alice", "bob", "carol", "dave"]))
    updates = {u.player_id: u for u in await service.published("rating.rating.updated")}
    assert updates["dave"].points_micro == 5_000_000
    assert (updates["dave"].tournament_id, updates["dave"].as_of_day) == ("t1", "2025-03-01")
