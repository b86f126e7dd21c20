"""Progressive jackpots (P-8.6)."""

import pytest
from pydantic import TypeAdapter, ValidationError
from tournament_director.domain.entries import Price
from tournament_director.domain.jackpots import (
    FinishedTournament,
    HandCategory,
    JackpotProgramme,
    LostShowdownCondition,
    Showdown,
    ShowdownHand,
    WinStreakCondition,
    jackpot_contribution_cents,
    showdown_qualifiers,
    split_jackpot,
    streak_qualifiers,
)

BAD_BEAT = JackpotProgramme(programme_id="bad-beat", fee_share_bps=1000, condition=LostShowdownCondition())
SIX_IN_A_ROW = JackpotProgramme(
    programme_id="six-in-a-row", fee_share_bps=500, condition=WinStreakCondition(wins_in_row=6, min_entrants=6)
)


def test_p8_6_funded_from_the_fee_net_of_tax_never_from_the_prize_part() -> None:
    price = Price(prize_part_cents=900, fee_cents=100)
    # Tax at 3% of €10.00 = 30 cents; fee after tax 70; 10% of it = 7.
    assert jackpot_contribution_cents(BAD_BEAT, price, tax_rate_bps=300) == 7
    # Tax rounded up, so rounding never takes from it: 3% of €0.50 = 1.5 → 2; fee 10 − 2 = 8 → 10% = 0.
    assert jackpot_contribution_cents(BAD_BEAT, Price(prize_part_cents=40, fee_cents=10), tax_rate_bps=300) == 0
    # A fee smaller than the tax funds nothing.
    assert jackpot_contribution_cents(BAD_BEAT, Price(prize_part_cents=1000, fee_cents=0), tax_rate_bps=300) == 0


def _hand(*showdown: ShowdownHand) -> Showdown:
    return Showdown(tournament_id="t1", hand_id="h9", showdown=showdown)


def test_p8_6_lost_showdown_holding_four_of_a_kind_or_better() -> None:
    fact = _hand(
        ShowdownHand("quads-loser", HandCategory.FOUR_OF_A_KIND, chips_won=0),
        ShowdownHand("straight-flush", HandCategory.STRAIGHT_FLUSH, chips_won=5000),
        ShowdownHand("full-house-loser", HandCategory.FULL_HOUSE, chips_won=0),
    )
    assert showdown_qualifiers(BAD_BEAT, fact) == ("quads-loser",)


def test_p8_6_winning_a_side_pot_is_not_losing_the_showdown() -> None:
    fact = _hand(ShowdownHand("quads", HandCategory.FOUR_OF_A_KIND, chips_won=300))
    assert showdown_qualifiers(BAD_BEAT, fact) == ()


def test_p8_6_six_tournament_wins_in_a_row() -> None:
    field = tuple(f"p{i}" for i in range(6))
    outcome = streak_qualifiers(SIX_IN_A_ROW, FinishedTournament("t", "p0", field), {"p0": 5, "p1": 3})
    assert outcome.qualifiers == ("p0",)
    assert outcome.streaks == dict.fromkeys(field, 0)  # the winner starts again; the others lost


def test_p8_6_streak_grows_with_each_win_and_small_fields_do_not_count() -> None:
    field = tuple(f"p{i}" for i in range(6))
    outcome = streak_qualifiers(SIX_IN_A_ROW, FinishedTournament("t", "p1", field), {"p1": 2})
    assert (outcome.qualifiers, outcome.streaks["p1"]) == ((), 3)
    small = streak_qualifiers(SIX_IN_A_ROW, FinishedTournament("t", "p1", field[:5]), {"p1": 5})
    assert (small.qualifiers, small.streaks) == ((), {})


def test_p8_6_conditions_of_the_other_kind_never_qualify() -> None:
    fact = _hand(ShowdownHand("q", HandCategory.STRAIGHT_FLUSH, chips_won=0))
    assert showdown_qualifiers(SIX_IN_A_ROW, fact) == ()
    assert streak_qualifiers(BAD_BEAT, FinishedTournament("t", "a", ("a", "b")), {}).qualifiers == ()
    with pytest.raises(ValueError):
        streak_qualifiers(SIX_IN_A_ROW, FinishedTournament("t", "z", ("a", "b")), {})


def test_p8_6_conditions_are_data() -> None:
    data = {"programme_id": "x", "fee_share_bps": 200, "condition": {"kind": "win_streak", "wins_in_row": 3}}
    programme = TypeAdapter(JackpotProgramme).validate_python(data)
    assert programme.condition == WinStreakCondition(wins_in_row=3)
    with pytest.raises(ValidationError):
        JackpotProgramme.model_validate({**data, "fee_share_bps": 10_001})


def test_p8_5_jackpot_split_among_qualifiers() -> None:
    assert split_jackpot(1001, ["a", "b"]) == {"a": 501, "b": 500}
