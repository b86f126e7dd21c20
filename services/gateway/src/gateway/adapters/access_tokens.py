"""Short-lived access tokens: JWTs signed with HS256 carrying the principal (role, subject, concessionaire)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta
from functools import lru_cache

import jwt
from platform_kit.clock import Clock

from gateway.domain.roles import Principal, Role

ISSUER = "gateway"
#: Tokens whose signature was checked, kept so that a player's next requests skip the HMAC and the JSON (about a
#: tenth of the gateway's CPU for a one-read route: issue 14). Only tokens that verified are kept, and each is
#: still checked for expiry on every use, so the cache changes no answer; it is bounded in entries (a token is a
#: few hundred bytes) and sized above the players one gateway serves at once.
VERIFIED_TOKENS_KEPT = 16_384
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
        self._verified = lru_cache(maxsize=VERIFIED_TOKENS_KEPT)(self._verify)

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
        principal, expires = self._verified(token)
        if self._clock.now().timestamp() >= expires:
            raise InvalidAccessToken("token_expired", "The access token has expired; refresh it.")
        return principal

    def _verify(self, token: str) -> tuple[Principal, int]:
        """The principal and expiry a token carries, once its signature and claims are checked (an invalid
        token raises, and so is never kept)."""
        try:
            # Expiry is checked in `decode`, on every use, against the injected clock (not the system clock).
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
        try:
            role = Role(claims["role"])
            if role not in TOKEN_ROLES:
                raise ValueError(role)
            return Principal(role, claims["sub"], claims.get("cid"), claims.get("nick")), int(claims["exp"])
        except ValueError:
            raise InvalidAccessToken("invalid_token", "The access token is not valid.") from None
