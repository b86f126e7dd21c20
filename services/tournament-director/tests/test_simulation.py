"""The tournament simulator and its command: seeded and deterministic, invariants checked, output shape."""

from __future__ import annotations

import json

import pytest
from tournament_director.cli import main
from tournament_director.domain.entries import Price
from tournament_director.domain.kinds import TableMode, TournamentKind
from tournament_director.simulation import SimulationOptions, parse_price, simulate


def test_the_same_seed_gives_the_same_tournament() -> None:
    options = SimulationOptions(players=60, seed=21)
    first, second = simulate(options).to_json(), simulate(options).to_json()
    assert json.dumps(first) == json.dumps(second)
    assert simulate(SimulationOptions(players=60, seed=22)).to_json() != first


@pytest.mark.parametrize(
    "options",
    [
        SimulationOptions(players=45, seed=1),
        SimulationOptions(players=12, seed=2, kind=TournamentKind.SIT_AND_GO),
        SimulationOptions(players=24, seed=3, mode=TableMode.SHOOTOUT),
    ],
    ids=["scheduled", "sit_and_go", "shootout"],
)
def test_p2_1_p8_5_every_simulation_passes_its_invariant_checks(options: SimulationOptions) -> None:
    report = simulate(options)
    assert report.checks and all(report.checks.values())
    assert sorted(ranked.position for ranked in report.ranking) == list(range(1, options.players + 1))
    assert sum(report.payouts_cents) == report.prize_pool_cents == options.players * 9_000
    assert report.hands_played >= report.table_rounds > 0


def test_p8_1_prices_are_read_as_prize_part_plus_fee_in_euros() -> None:
    assert parse_price("90+10") == Price(prize_part_cents=9_000, fee_cents=1_000)
    assert parse_price(" 0.45 + 0.05 ") == Price(prize_part_cents=45, fee_cents=5)
    with pytest.raises(ValueError, match="90\\+10"):
        parse_price("100")


def test_the_command_prints_one_json_object(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["simulate", "--players", "20", "--seed", "3", "--json", "--buy-in", "9+1"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["prize_pool_cents"] == 20 * 900 == sum(report["payouts_cents"])
    assert [ranked["position"] for ranked in report["ranking"]] == list(range(1, 21))
    assert set(report["ranking"][0]) == {"position", "player_id", "prize_cents", "seat"}
    assert report["max_table_size_gap"] <= 1 and all(report["checks"].values())
    assert {"hands_played", "table_rounds", "final_level", "options"} <= set(report)


def test_the_command_prints_the_ranking_and_the_checks(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["simulate", "--players", "9", "--seed", "8", "--kind", "sit_and_go"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0] == "sit_and_go tournament, standard tables: 9 players, seed 8"
    assert lines[1].startswith("prize pool: 81000 cents")
    assert lines[4].startswith("checks: ") and "FAILED" not in lines[4]
    ranking = [line.split() for line in lines[lines.index("final ranking (position, player, prize in cents):") + 1 :]]
    assert [int(position) for position, _, _ in ranking] == list(range(1, 10))
    assert [int(prize) for _, _, prize in ranking[:3]] == [52_650, 28_350, 0]


def test_p3_2_the_command_refuses_a_field_too_small_to_start(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["simulate", "--players", "5", "--seed", "1"]) == 1
    assert "P-3.2" in capsys.readouterr().err
