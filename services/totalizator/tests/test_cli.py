"""The verifier (T-8.4): `totalizator verify --draw DRAW.json --bets BETS.csv [--json]` on published files."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from totalizator.cli import main
from totalizator.files import bets_file_name, draw_file_name, write_bets, write_draw


def publish(tmp_path: Path, draw, coupons) -> tuple[Path, Path]:
    draw_path = tmp_path / draw_file_name(draw.draw_id)
    bets_path = tmp_path / bets_file_name(draw.draw_id)
    with draw_path.open("w", encoding="utf-8") as out:
        write_draw(draw, out)
    with bets_path.open("w", encoding="utf-8", newline="") as out:
        write_bets(draw, coupons, out)
    return draw_path, bets_path


def verify_json(capsys, *args: str) -> dict:
    assert main(["verify", *args, "--json"]) == 0
    return json.loads(capsys.readouterr().out)


def test_t7_t8_4_the_worked_example_through_the_verifier(kit, tmp_path, capsys) -> None:
    draw = kit.draw(jackpot="200000", draw_id="2010-1")
    coupons = [
        kit.single(draw, "five", "10000.00", right=5),
        kit.single(draw, "four", "20000.00", right=4),
        kit.single(draw, "three", "30000.00", right=3),
        kit.single(draw, "two", "20000.00", right=2),
        kit.single(draw, "none", "10000.00", right=0, currency="EUR"),  # USD 10,843
        kit.single(draw, "none-too", "9157.00", right=0),  # the pool is USD 100,000
    ]
    draw_path, bets_path = publish(tmp_path, draw, coupons)
    report = verify_json(capsys, "--draw", str(draw_path), "--bets", str(bets_path))

    assert report["pool_usd"] == "100000.000000"
    assert report["prize_fund_usd"] == "95000.000000"
    categories = {c["category"]: c for c in report["categories"]}
    assert [categories[n]["fund_usd"] for n in (1, 2, 3)] == ["0.000000"] * 3
    assert categories[4]["fund_usd"] == "16000.000000"  # 10% + 30% of the unwon 20%
    assert categories[5]["fund_usd"] == "15000.000000"
    assert categories[6]["fund_usd"] == "20000.000000"
    assert categories[7]["fund_usd"] == "30000.000000"
    assert [categories[n]["min_right"] for n in range(1, 8)] == [8, 7, 6, 5, 4, 3, 2]
    assert [categories[n]["winning_stake_usd"] for n in (4, 7)] == ["10000.000000", "80000.000000"]
    assert report["jackpot"]["played_usd"] == "0.000000"
    assert report["jackpot"]["next_usd"] == "214000.000000"
    assert report["organizer_topup_usd"] == "31250.000000"
    assert report["rounding_remainder_usd"] == "0.010000"
    assert report["payouts"] == [
        {"coupon_id": "five", "currency": "USD", "amount": "28083.33"},
        {"coupon_id": "four", "currency": "USD", "amount": "24166.66"},
        {"coupon_id": "three", "currency": "USD", "amount": "36000.00"},
        {"coupon_id": "two", "currency": "USD", "amount": "24000.00"},
    ]


def test_t8_4_the_verifier_prints_a_readable_table_by_default(kit, tmp_path, capsys) -> None:
    draw = kit.draw(jackpot="1000")
    draw_path, bets_path = publish(
        tmp_path, draw, [kit.single(draw, "e", "2.00", right=8, currency="EUR"), kit.single(draw, "x", "8", right=1)]
    )
    assert main(["verify", "--draw", str(draw_path), "--bets", str(bets_path)]) == 0
    text = capsys.readouterr().out
    assert "Draw 1: settled; void matches: none" in text
    assert "coefficient paid" in text
    payouts_table = text.split("coupon  currency")[-1]
    assert "EUR" in payouts_table and "x" not in payouts_table  # the one-right bet wins nothing


def test_t8_4_cross_check_settles_again_by_expanding_every_line(kit, tmp_path, capsys) -> None:
    draw = kit.draw(jackpot="1000", void=[4])
    system = kit.coupon(draw, "s", "12.00", [["1:0", "0:0"], ["1:0", "2:1", "0:1"], *[["1:0"]] * 6])
    draw_path, bets_path = publish(tmp_path, draw, [system, kit.single(draw, "y", "3", right=6, currency="EUR")])
    report = verify_json(capsys, "--draw", str(draw_path), "--bets", str(bets_path), "--cross-check")
    assert report["void_matches"] == [4]
    assert {p["coupon_id"] for p in report["payouts"]} == {"s", "y"}


def test_t5_5_the_verifier_reports_a_refunded_draw(kit, tmp_path, capsys) -> None:
    draw = kit.draw(void=[1, 2, 3])
    draw_path, bets_path = publish(tmp_path, draw, [kit.single(draw, "a", "1.25", right=2)])
    report = verify_json(capsys, "--draw", str(draw_path), "--bets", str(bets_path))
    assert report["refunded"] is True
    assert report["payouts"] == [{"coupon_id": "a", "currency": "USD", "amount": "1.25"}]


def test_t8_4_a_broken_file_is_an_error_with_its_reason_not_a_traceback(kit, tmp_path, capsys) -> None:
    draw = kit.draw()
    draw_path, bets_path = publish(tmp_path, draw, [kit.single(draw, "a", "1.00", right=2)])
    bets_path.write_text(bets_path.read_text() + "b,USD,1.00,1.00,1:0\n", encoding="utf-8")
    assert main(["verify", "--draw", str(draw_path), "--bets", str(bets_path)]) == 2
    assert "line 3" in capsys.readouterr().err
    assert main(["verify", "--draw", str(tmp_path / "missing.json"), "--bets", str(bets_path)]) == 2


def test_t8_4_a_draw_without_results_cannot_be_verified(kit, tmp_path, capsys) -> None:
    draw = kit.draw(result=None)
    draw_path, bets_path = publish(tmp_path, draw, [kit.single(draw, "a", "1.00", right=0)])
    assert main(["verify", "--draw", str(draw_path), "--bets", str(bets_path)]) == 2
    assert "neither void nor has a result" in capsys.readouterr().err


def test_verify_needs_both_files() -> None:
    with pytest.raises(SystemExit):
        main(["verify", "--draw", "x.json"])


def test_t8_4_the_installed_command_runs_the_verifier(kit, tmp_path) -> None:
    """The `totalizator` console script (entry point totalizator.cli:main) as a partner would run it."""
    draw = kit.draw()
    draw_path, bets_path = publish(tmp_path, draw, [kit.single(draw, "a", "1.00", right=8)])
    script = Path(sys.executable).with_name("totalizator")
    finished = subprocess.run(
        [str(script), "verify", "--draw", str(draw_path), "--bets", str(bets_path), "--json"],
        capture_output=True,
        text=True,
        check=True,
        timeout=60,
    )
    # a lone bettor gets back 95% of the pool, raised to 1.2 × the stake by the organizer (T-6.2)
    assert json.loads(finished.stdout)["payouts"] == [{"coupon_id": "a", "currency": "USD", "amount": "1.20"}]
