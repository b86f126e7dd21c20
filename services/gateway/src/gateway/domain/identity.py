"""What a valid identity looks like: nicknames, emails, concessionaire codes, passwords, adulthood (T-1.4).

Validators raise ValueError with a message meant for the person filling in the form.
"""

from __future__ import annotations

import re
from datetime import date

NICKNAME_MIN, NICKNAME_MAX = 3, 20
# ASCII only: look-alike Unicode letters would let two "equal" nicknames coexist (P-11.5: the nickname is the
# player's whole public identity, so it must be unambiguous).
_NICKNAME = re.compile(r"[A-Za-z][A-Za-z0-9_.-]*")
_EMAIL = re.compile(r"[^@\s]+@[^@\s]+\.[^@\s.]+")
_CONCESSIONAIRE_CODE = re.compile(r"[a-z0-9][a-z0-9-]{1,39}")

PASSWORD_MIN, PASSWORD_MAX = 10, 128
ADULT_AGE = 18


def nickname_key(nickname: str) -> str:
    """The form under which nicknames are unique across the network: `Mario` and `mario` are the same."""
    return nickname.casefold()


def check_nickname(nickname: str) -> str:
    if not NICKNAME_MIN <= len(nickname) <= NICKNAME_MAX:
        raise ValueError(f"a nickname has {NICKNAME_MIN} to {NICKNAME_MAX} characters")
    if not _NICKNAME.fullmatch(nickname):
        raise ValueError("a nickname starts with a letter and has only letters, digits, '_', '.' and '-'")
    return nickname


def normalize_email(email: str) -> str:
    """Emails are compared case-insensitively (every mail provider we meet treats them so)."""
    email = email.strip().lower()
    if len(email) > 254 or not _EMAIL.fullmatch(email):
        raise ValueError("not a valid email address")
    return email


def check_concessionaire_code(code: str) -> str:
    if not _CONCESSIONAIRE_CODE.fullmatch(code):
        raise ValueError("a code has 2 to 40 lower-case letters, digits and '-', starting with a letter or digit")
    return code


def check_password(password: str) -> str:
    if not PASSWORD_MIN <= len(password) <= PASSWORD_MAX:
        raise ValueError(f"a password has {PASSWORD_MIN} to {PASSWORD_MAX} characters")
    return password


def age_on(date_of_birth: date, today: date) -> int:
    """Completed years. Someone born on 29 February turns a year older on 1 March in common years."""
    had_birthday = (today.month, today.day) >= (date_of_birth.month, date_of_birth.day)
    return today.year - date_of_birth.year - (0 if had_birthday else 1)


def is_adult(date_of_birth: date, today: date) -> bool:
    """T-1.4: participants are natural persons aged 18 or more."""
    return age_on(date_of_birth, today) >= ADULT_AGE


def check_date_of_birth(date_of_birth: date, today: date) -> date:
    if date_of_birth > today:
        raise ValueError("the date of birth is in the future")
    if age_on(date_of_birth, today) > 130:
        raise ValueError("the date of birth is implausibly far in the past")
    return date_of_birth
