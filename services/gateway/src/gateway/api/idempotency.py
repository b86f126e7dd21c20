"""`Idempotency-Key` pass-through for the money proxies (buy-in, rebuy, bet, payout): the client's key is
checked for shape here and handed to `ServiceClient.request(..., idempotency_key=key)`; the owning service
(the wallet) keeps the first answer per key.

    @router.post("/tournaments/{tournament_id}/entries")
    async def buy_in(key: IdempotencyKey, principal: ...) -> ...:
        await director.request("POST", ..., idempotency_key=key, principal=principal)
"""

from __future__ import annotations

from typing import Annotated

from fastapi import Depends, Header
from platform_kit.errors import ProblemError

# The smallest limit of the services behind (the totalizator keeps 100): a key the gateway accepts is accepted
# everywhere downstream, not refused after the gateway has already relayed part of the work.
MAX_LENGTH = 100


async def require_idempotency_key(
    idempotency_key: Annotated[
        str | None,
        Header(
            alias="Idempotency-Key",
            description="A unique value per intended operation (a UUID is fine); a retry with the same key "
            "returns the first answer instead of moving money twice.",
            examples=["7f1c0a9e-1c2b-4c52-9a57-0e8f1f6f4a11"],
        ),
    ] = None,
) -> str:
    if not idempotency_key:
        raise ProblemError("idempotency_key_required", "This operation needs an Idempotency-Key header.")
    if len(idempotency_key) > MAX_LENGTH or not idempotency_key.isascii() or not idempotency_key.isprintable():
        raise ProblemError(
            "idempotency_key_invalid", f"An Idempotency-Key has 1 to {MAX_LENGTH} printable ASCII characters."
        )
    return idempotency_key


IdempotencyKey = Annotated[str, Depends(require_idempotency_key)]
