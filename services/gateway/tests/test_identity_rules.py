"""Pure identity rules: adulthood (T-1.4), nicknames (P-11.5), emails, passwords."""

from datetime import date, timedelta

import pytest
from gateway.domain.identity import (
    age_on,
    check_concessionaire_code,
    check_date_of_birth,
    check_nickname,
    check_password,
    is_adult,
    nickname_key,
    normalize_email,
)
from hypothesis import given
from hypothesis import strategies as st


def eighteenth_birthday(born: date) -> date:
    """The reference: the same day 18 years on, or 1 March when that day does not exist (29 February)."""
    try:
        return born.replace(year=born.year + 18)
    except ValueError:
        return date(born.year + 18, 3, 1)


@given(st.dates(min_value=date(1900, 1, 1), max_value=date(2080, 1, 1)), st.integers(0, 40 * 366))
def test_t1_4_adult_exactly_from_the_eighteenth_birthday(born: date, days_later: int) -> None:
    today = born + timedelta(days=days_later)
    assert is_adult(born, today) == (today >= eighteenth_birthday(born))


def test_t1_4_born_on_29_february_comes_of_age_on_1_march_in_a_common_year() -> None:
    born = date(2008, 2, 29)
    assert not is_adult(born, date(2026, 2, 28))
    assert is_adult(born, date(2026, 3, 1))
    assert age_on(born, date(2024, 2, 29)) == 16


def test_dates_of_birth_in_the_future_or_implausibly_old_are_refused() -> None:
    today = date(2026, 3, 1)
    with pytest.raises(ValueError, match="future"):
        check_date_of_birth(today + timedelta(days=1), today)
    with pytest.raises(ValueError, match="implausibly"):
        check_date_of_birth(date(1880, 1, 1), today)
    assert check_date_of_birth(date(1990, 1, 1), today) == date(1990, 1, 1)


@given(st.from_regex(r"[A-Za-z][A-Za-z0-9_.-]{2,19}", fullmatch=True))
def test_p11_5_nicknames_are_unique_whatever_the_case(nickname: str) -> None:
    assert check_nickname(nickname) == nickname
    assert nickname_key(nickname.upper()) == nickname_key(nickname.lower()) == nickname_key(nickname)


@pytest.mark.parametrize("nickname", ["ab", "a" * 21, "1abc", "_abc", "Mario Rossi", "Mаrio", "mario@x.it"])
def test_p11_5_nicknames_are_short_unambiguous_ascii(nickname: str) -> None:
    """Look-alike letters (the Cyrillic 'а' in "Mаrio") would let two equal-looking public identities coexist."""
    with pytest.raises(ValueError):
        check_nickname(nickname)


def test_emails_are_compared_in_lower_case_and_must_look_like_emails() -> None:
    assert normalize_email("  Mario.Rossi@Example.COM ") == "mario.rossi@example.com"
    for bad in ("mario", "mario@", "@example.com", "mario@example", "ma rio@example.com", "a@b@c.it"):
        with pytest.raises(ValueError):
            normalize_email(bad)


def test_passwords_and_concessionaire_codes_have_bounded_shapes() -> None:
    with pytest.raises(ValueError):
        check_password("short")
    with pytest.raises(ValueError):
        check_password("x" * 129)
    assert check_password("long enough password") == "long enough password"
    assert check_concessionaire_code("sala-roma") == "sala-roma"
    for bad in ("a", "Sala", "-sala", "sala roma"):
        with pytest.raises(ValueError):
            check_concessionaire_code(bad)
