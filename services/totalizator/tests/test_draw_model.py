"""The draw model: offered results (T-2.1), currencies and rates (T-2.2, T-2.3), jackpot (T-4.4), voids (T-5.1)."""

from __future__ import annotations

import dataclasses
from datetime import datetime, timedelta
from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st
from totalizator.domain import CurrencyTerms, InvalidDraw, Match, option_for_score, standard_options


def test_t2_1_standard_options_are_every_score_up_to_4_4_and_three_catch_alls() -> None:
    options = standard_options()
    assert len(options) == 25 + 3
    assert options[:6] == ("0:0", "1:0", "0:1", "2:0", "1:1", "0:2")
    assert options[-4:] == ("4:4", "other home", "other draw", "other away")
    assert {f"{h}:{a}" for h in range(5) for a in range(5)} <= set(options)


@given(st.integers(0, 30), st.integers(0, 30), st.integers(0, 6))
def test_t2_1_every_final_score_maps_to_exactly_one_offered_option(home: int, away: int, max_goals: int) -> None:
    options = standard_options(max_goals)

    def covers(option: str) -> bool:
        if option == "other home":
            return home > away and f"{home}:{away}" not in options
        if option == "other draw":
            return home == away and f"{home}:{away}" not in options
        if option == "other away":
            return home < away and f"{home}:{away}" not in options
        return option == f"{home}:{away}"

    assert [option for option in options if covers(option)] == [option_for_score(options, home, away)]


@pytest.mark.parametrize(
    ("options", "reason"),
    [
        (("1:0", "other home", "other draw"), "lack"),
        (("1:0", "1:0", "other home", "other draw", "other away"), "duplicate"),
        (("01:0", "other home", "other draw", "other away"), "neither"),
        (("home win", "other home", "other draw", "other away"), "neither"),
    ],
)
def test_t2_1_an_option_list_that_leaves_a_score_unmapped_or_ambiguous_is_refused(options, reason, kit) -> None:
    match = kit.draw().match(1)
    with pytest.raises(InvalidDraw, match=reason):
        dataclasses.replace(match, options=options)


def test_t2_1_a_draw_has_exactly_eight_matches_numbered_in_order(kit) -> None:
    draw = kit.draw()
    with pytest.raises(InvalidDraw, match="numbered"):
        dataclasses.replace(draw, matches=draw.matches[:7])
    with pytest.raises(InvalidDraw, match="numbered"):
        dataclasses.replace(draw, matches=tuple(reversed(draw.matches)))


def test_t2_1_a_result_must_be_an_offered_option_and_a_score_is_stored_as_its_option(kit) -> None:
    draw = kit.draw()
    assert draw.with_score(1, 7, 2).match(1).result == "other home"
    assert draw.with_score(1, 2, 1).match(1).result == "2:1"
    with pytest.raises(InvalidDraw, match="not one of its options"):
        draw.with_result(1, "9:9")


def test_t2_2_t2_3_currency_terms_are_exact_and_checked() -> None:
    eur = CurrencyTerms("EUR", 10, Fraction("1.0843"))
    assert eur.to_usd(150) == Fraction("1.62645")
    assert CurrencyTerms("JPY", 15, Fraction("0.0067")).to_usd(1500) == Fraction("10.05")
    assert CurrencyTerms("KWD", 30, Fraction("3.2541")).to_usd(1) == Fraction("0.0032541")
    with pytest.raises(InvalidDraw, match="ISO 4217"):
        CurrencyTerms("XYZ", 10, Fraction(1))
    with pytest.raises(InvalidDraw, match="minimum stake"):
        CurrencyTerms("EUR", 0, Fraction(1))
    with pytest.raises(InvalidDraw, match="USD rate"):
        CurrencyTerms("EUR", 10, Fraction(0))
    with pytest.raises(InvalidDraw, match="USD rate of USD is 1"):
        CurrencyTerms("USD", 10, Fraction("1.01"))
    with pytest.raises(InvalidDraw, match="exact decimal"):
        CurrencyTerms("GBP", 10, Fraction(4, 3))  # a rate is announced as a decimal, fixed for the draw


def test_t2_2_a_draw_lists_each_accepted_currency_once(kit) -> None:
    draw = kit.draw()
    assert draw.accepts("EUR") and not draw.accepts("GBP")
    with pytest.raises(InvalidDraw, match="once"):
        dataclasses.replace(draw, currencies=(*draw.currencies, draw.currencies[0]))


def test_t2_2_times_must_carry_a_timezone(kit) -> None:
    draw = kit.draw()
    with pytest.raises(InvalidDraw, match="timezone"):
        dataclasses.replace(draw, close_at=datetime(2030, 1, 1))


def test_t4_4_the_jackpot_played_is_the_carried_jackpot_plus_the_organizer_top_up(kit) -> None:
    assert kit.draw(jackpot="214000", topup="36000").jackpot_usd == 250_000
    with pytest.raises(InvalidDraw, match="negative"):
        kit.draw(topup="-1")
    with pytest.raises(InvalidDraw, match="exact decimal"):
        kit.draw(jackpot="1/3")


def test_t5_1_void_by_decision_or_by_kicking_off_before_bet_closing(kit) -> None:
    draw = kit.draw()
    assert draw.void_matches == ()
    assert [m.no for m in draw.with_void(3).void_matches] == [3]
    kicked_off_early = draw.with_kickoff(5, kit.close_at - timedelta(seconds=1))
    assert [m.no for m in kicked_off_early.void_matches] == [5]
    assert not kicked_off_early.match(5).declared_void
    assert draw.with_kickoff(5, kit.close_at).void_matches == ()  # kicking off at closing is not before it


def test_a_match_is_a_value_object_with_its_options_indexed(kit) -> None:
    match: Match = kit.draw().match(2)
    assert match.option_index("0:0") == 0
    with pytest.raises(KeyError):
        match.option_index("9:9")
    with pytest.raises(KeyError):
        kit.draw().match(9)
