"""Short-lived access tokens: JWTs signed with HS256 carrying the principal (role, subject, concessionaire)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta

import jwt
from platform_kit.clock import Clock

from gateway.domain.roles import Principal, Role

ISSUER = "gateway"
ALGORITHM = "HS256"
TOKEN_ROLES = frozenset({Role.PLAYER, Role.OPERATOR, Role.ADMIN})  # partners use API keys, never tokens


class InvalidAccessToken(Exception):
    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


@dataclass(frozen=True, slots=True)
class AccessToken:
    token: str
    expires_at: datetime


class AccessTokenCodec:
    def __init__(self, secret: str, ttl: timedelta, clock: Clock) -> None:
        self._secret = secret
        self.ttl = ttl
        self._clock = clock

    def issue(self, principal: Principal) -> AccessToken:
        if principal.role not in TOKEN_ROLES:
            raise ValueError(f"no access tokens for {principal.role} principals")
        now = self._clock.now()
        expires_at = now + self.ttl
        claims = {
            "iss": ISSUER,
            "typ": "access",
            "sub": principal.subject_id,
            "role": principal.role.value,
            "cid": principal.concessionaire_id,
            "nick": principal.nickname,
            "iat": int(now.timestamp()),
            "exp": int(expires_at.timestamp()),
        }
        return AccessToken(jwt.encode(claims, self._secret, algorithm=ALGORITHM), expires_at)

    def decode(self, token: str) -> Principal:
        try:
            # Expiry is checked against the injected clock below, not the system clock.
            claims = jwt.decode(
                token,
                self._secret,
                algorithms=[ALGORITHM],
                issuer=ISSUER,
                options={"verify_exp": False, "require": ["exp", "sub", "role", "typ"]},
            )
        except jwt.PyJWTError:
            raise InvalidAccessToken("invalid_token", "The access token is not valid.") from None
        if claims["typ"] != "access":
            raise InvalidAccessToken("invalid_token", "Not an access token.")
        if self._clock.now().timestamp() >= claims["exp"]:
            raise InvalidAccessToken("token_expired", "The access token has expired; refresh it.")
        try:
            role = Role(claims["role"])
            if role not in TOKEN_ROLES:
                raise ValueError(role)
            return Principal(role, claims["sub"], claims.get("cid"), claims.get("nick"))
        except ValueError:
            raise InvalidAccessToken("invalid_token", "The access token is not valid.") from None
