"""Identifiers and secrets from an injected source of random bytes (cryptographically secure by default,
seeded in tests), and how secrets are stored: as SHA-256 digests.

A fast digest is enough here (unlike passwords): refresh tokens and API keys carry 256 random bits, so there is
nothing to guess by brute force.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import secrets as system_secrets
from collections.abc import Callable
from dataclasses import dataclass

API_KEY_PREFIX = "gk"


def digest(secret: str) -> str:
    return hashlib.sha256(secret.encode()).hexdigest()


def same_digest(secret: str, stored_digest: str) -> bool:
    return hmac.compare_digest(digest(secret), stored_digest)


@dataclass(frozen=True, slots=True)
class NewApiKey:
    key: str  # shown to the caller once: `gk_<prefix>_<secret>`
    prefix: str  # stored in clear, to find the key
    secret_hash: str  # stored: digest of the whole key


def api_key_prefix(key: str) -> str | None:
    """The lookup part of a presented key, or None when it is not shaped like one of ours."""
    parts = key.split("_", 2)  # the secret itself may contain "_"
    if len(parts) != 3 or parts[0] != API_KEY_PREFIX or len(parts[1]) != 12:
        return None
    return parts[1]


class SecretFactory:
    def __init__(self, random_bytes: Callable[[int], bytes] = system_secrets.token_bytes) -> None:
        self._random_bytes = random_bytes

    def new_id(self) -> str:
        return self._random_bytes(16).hex()

    def refresh_token(self) -> str:
        return self._urlsafe(32)

    def api_key(self) -> NewApiKey:
        prefix = self._random_bytes(6).hex()
        key = f"{API_KEY_PREFIX}_{prefix}_{self._urlsafe(32)}"
        return NewApiKey(key=key, prefix=prefix, secret_hash=digest(key))

    def channel_epoch(self) -> str:
        return self._random_bytes(4).hex()

    def _urlsafe(self, nbytes: int) -> str:
        return base64.urlsafe_b64encode(self._random_bytes(nbytes)).rstrip(b"=").decode()
