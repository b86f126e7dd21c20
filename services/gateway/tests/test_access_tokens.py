"""Access tokens: a token verified once is kept (issue 14: the signature check is a tenth of a one-read route's
CPU), and keeping it changes no answer: it still expires on time, and a token changed by one character is
checked, and refused, on its own."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
from gateway.adapters.access_tokens import AccessTokenCodec, InvalidAccessToken
from gateway.domain.roles import Principal, Role
from platform_kit.clock import FrozenClock

PLAYER = Principal(Role.PLAYER, "p-1", "demo", "Mario")


def codec(clock: FrozenClock, secret: str = "s" * 32) -> AccessTokenCodec:
    return AccessTokenCodec(secret, timedelta(minutes=15), clock)


def test_a_kept_token_still_expires_on_time() -> None:
    clock = FrozenClock(datetime.now(UTC))  # PyJWT refuses an `iat` ahead of the system clock
    tokens = codec(clock)
    token = tokens.issue(PLAYER).token
    assert tokens.decode(token) == PLAYER
    assert tokens.decode(token) == PLAYER  # from the kept verification
    clock.advance(timedelta(minutes=15))
    with pytest.raises(InvalidAccessToken) as expired:
        tokens.decode(token)
    assert expired.value.code == "token_expired"


def test_a_changed_token_is_refused_after_the_genuine_one_was_kept() -> None:
    clock = FrozenClock(datetime.now(UTC))  # PyJWT refuses an `iat` ahead of the system clock
    tokens = codec(clock)
    token = tokens.issue(PLAYER).token
    tokens.decode(token)
    header, payload, signature = token.split(".")
    forged = f"{header}.{payload}.{signature[:-2]}{'AA' if signature[-2:] != 'AA' else 'BB'}"
    for _ in range(2):  # a refusal is never kept as a verification
        with pytest.raises(InvalidAccessToken) as refused:
            tokens.decode(forged)
        assert refused.value.code == "invalid_token"


def test_a_token_signed_with_another_secret_is_refused() -> None:
    clock = FrozenClock(datetime.now(UTC))  # PyJWT refuses an `iat` ahead of the system clock
    foreign = codec(clock, secret="x" * 32).issue(PLAYER).token
    with pytest.raises(InvalidAccessToken):
        codec(clock).decode(foreign)
