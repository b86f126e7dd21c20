"""The published files (T-8.2 draw file, T-8.3 bet file): exact layout, round trips, and what readers refuse."""

from __future__ import annotations

import io
import json
from datetime import timedelta

import pytest
from totalizator.files import (
    PublishedFileError,
    bets_file_name,
    draw_file_name,
    read_bets,
    read_draw,
    write_bets,
    write_draw,
)
from totalizator.files.decimals import exact_decimal, parse_decimal, parse_minor, rounded_decimal


def draw_json(draw) -> dict:
    out = io.StringIO()
    write_draw(draw, out)
    return json.loads(out.getvalue())


def bets_csv(draw, coupons) -> str:
    out = io.StringIO()
    write_bets(draw, coupons, out)
    return out.getvalue()


def test_t8_1_file_names() -> None:
    assert draw_file_name("2010-1") == "draw-2010-1.json"
    assert bets_file_name("2010-1") == "bets-2010-1.csv"


def test_t8_2_the_draw_file_layout(kit) -> None:
    draw = kit.draw(jackpot="50000", topup="0.5").with_void(8).with_score(1, 2, 1)
    data = draw_json(draw)
    assert list(data) == ["draw_id", "close_at", "jackpot_usd", "fx_to_usd", "min_stakes", "matches"]
    assert data["draw_id"] == "1"
    assert data["close_at"] == "2030-06-10T20:00:00Z"
    assert data["jackpot_usd"] == "50000.50"
    assert data["fx_to_usd"] == {"USD": "1", "EUR": "1.0843", "JPY": "0.0067"}
    assert data["min_stakes"] == {"USD": "0.10", "EUR": "0.10", "JPY": "15"}
    assert len(data["matches"]) == 8
    first, last = data["matches"][0], data["matches"][-1]
    assert first == {
        "no": 1,
        "home": "Home 1",
        "away": "Away 1",
        "kickoff": "2030-06-10T21:00:00Z",
        "options": list(draw.match(1).options),
        "result": "2:1",
        "void": False,
    }
    assert last["void"] is True


def test_t8_2_the_draw_file_before_results_has_null_results(kit) -> None:
    assert [m["result"] for m in draw_json(kit.draw(result=None))["matches"]] == [None] * 8


def test_t8_2_the_draw_file_round_trips(kit) -> None:
    draw = kit.draw(jackpot="214000.35").with_void(2).with_kickoff(3, kit.close_at - timedelta(minutes=1))
    out = io.StringIO()
    write_draw(draw, out)
    again = read_draw(io.StringIO(out.getvalue()))
    assert again == draw
    assert [m.no for m in again.void_matches] == [2, 3]


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda d: d.update(jackpot_usd=50000), "expected a string"),
        (lambda d: d.update(jackpot_usd="5e4"), "plain decimal"),
        (lambda d: d["min_stakes"].update(EUR="0.105"), "units of 10"),
        (lambda d: d["fx_to_usd"].update(GBP="1.27"), "without a minimum stake"),
        (lambda d: d["matches"].pop(), "numbered"),
        (lambda d: d["matches"][0].update(result="9:9"), "not one of its options"),
        (lambda d: d["matches"][0].update(void="no"), "true or false"),
        (lambda d: d["matches"][0].update(kickoff="2030-06-10T19:00:00Z"), "T-5.1"),
        (lambda d: d.update(close_at="2030-06-10T20:00:00"), "UTC offset"),
        (lambda d: d.pop("matches"), "KeyError"),
    ],
)
def test_t8_2_a_malformed_draw_file_is_refused_with_the_reason(kit, change, message) -> None:
    data = draw_json(kit.draw())
    change(data)
    with pytest.raises(PublishedFileError, match=message):
        read_draw(io.StringIO(json.dumps(data)))


def test_t8_3_the_bet_file_layout(kit) -> None:
    draw = kit.draw()
    coupons = [
        kit.coupon(draw, "c-1", "1.50", [["2:1", "1:0"], *[["1:0"]] * 6, ["other home"]], currency="EUR"),
        kit.single(draw, "c-2", "1500", right=3, currency="JPY"),
    ]
    assert bets_csv(draw, coupons).splitlines() == [
        "coupon_id,currency,amount,amount_usd,m1,m2,m3,m4,m5,m6,m7,m8",
        "c-1,EUR,1.50,1.62645,1:0|2:1,1:0,1:0,1:0,1:0,1:0,1:0,other home",
        "c-2,JPY,1500,10.05,1:0,1:0,1:0,0:0,0:0,0:0,0:0,0:0",
    ]


def test_t8_3_the_bet_file_round_trips(kit) -> None:
    draw = kit.draw()
    coupons = [
        kit.coupon(draw, "c,1", "0.40", [["0:0", "other away"], ["1:1", "2:2"], *[["1:0"]] * 6]),
        kit.single(draw, "c-2", "0.10", right=8),
    ]
    assert read_bets(draw, io.StringIO(bets_csv(draw, coupons))) == coupons


@pytest.mark.parametrize(
    ("line", "message"),
    [
        ("c-9,GBP,1.00,1.27,1:0,1:0,1:0,1:0,1:0,1:0,1:0,1:0", "not accepted"),
        ("c-9,EUR,1.00,1.08,1:0,1:0,1:0,1:0,1:0,1:0,1:0,1:0", "at the draw's rate"),
        ("c-9,USD,1.001,1.001,1:0,1:0,1:0,1:0,1:0,1:0,1:0,1:0", "units of 10"),
        ("c-9,USD,1.00,1.00,9:0,1:0,1:0,1:0,1:0,1:0,1:0,1:0", "does not offer"),
        ("c-9,USD,1.00,1.00,1:0|1:0,1:0,1:0,1:0,1:0,1:0,1:0,1:0", "picked twice"),
        ("c-9,USD,0.05,0.05,1:0,1:0,1:0,1:0,1:0,1:0,1:0,1:0", "at least 0.10 USD"),
        ("c-9,USD,1.00,1.00,1:0,1:0,1:0,1:0,1:0,1:0,1:0", "expected 12 fields"),
        ("c-1,USD,1.00,1.00,1:0,1:0,1:0,1:0,1:0,1:0,1:0,1:0", "listed twice"),
    ],
)
def test_t8_3_a_bet_file_contradicting_the_draw_is_refused_with_its_line(kit, line, message) -> None:
    draw = kit.draw()
    text = bets_csv(draw, [kit.single(draw, "c-1", "1.00", right=2)]) + line + "\n"
    with pytest.raises(PublishedFileError, match=f"line 3: .*{message}"):
        read_bets(draw, io.StringIO(text))


def test_t8_3_a_bet_file_with_another_header_is_refused(kit) -> None:
    with pytest.raises(PublishedFileError, match="header"):
        read_bets(kit.draw(), io.StringIO("id,currency,amount\n"))


def test_decimal_strings_are_exact() -> None:
    assert parse_decimal("1.0843") * 10_000 == 10_843
    assert parse_minor("12.5", 2) == 1250
    assert exact_decimal(parse_decimal("214000.35"), min_places=2) == "214000.35"
    assert exact_decimal(parse_decimal("0.0000001")) == "0.0000001"
    with pytest.raises(ValueError, match="finite"):
        exact_decimal(parse_decimal("1") / 3)
    assert rounded_decimal(parse_decimal("0.0000025"), 6) == "0.000002"  # half to even
    assert rounded_decimal(parse_decimal("-0.0000035"), 6) == "-0.000004"
    for bad in ["1e5", "NaN", " 1", "1.", ".5", ""]:
        with pytest.raises(ValueError):
            parse_decimal(bad)
