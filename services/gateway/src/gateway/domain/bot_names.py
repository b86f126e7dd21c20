"""The house bots' names: `Bot_` and a random tail, a prefix no person may take (`reserved_names`).

The bots sign up through the public API like anyone, so the house proves a bot's name is its own with a
signature: HMAC-SHA256 of the nickname under the platform's internal token, which only the platform's own
processes hold. A signature is good for that one nickname only: seen by anyone, it lets them take nothing else.
"""

from __future__ import annotations

import hashlib
import hmac

BOT_PREFIX = "Bot_"
# Domain separation: the internal token also authenticates service-to-service calls, never with this message.
_PURPOSE = b"gateway house bot nickname\x00"


def is_bot(nickname: str) -> bool:
    return nickname.startswith(BOT_PREFIX)


def house_signature(key: str, nickname: str) -> str:
    """What a house bot sends with its sign-up (`key`: the internal token)."""
    return hmac.new(key.encode(), _PURPOSE + nickname.encode(), hashlib.sha256).hexdigest()


def signed_by_house(key: str, nickname: str, signature: str | None) -> bool:
    """A bot's nickname with the house's signature over it (compared in constant time)."""
    if signature is None or not is_bot(nickname):
        return False
    return hmac.compare_digest(house_signature(key, nickname), signature)
