"""A batch of a draw's stakes (a totalizator's closing rush, issue 14), each under its own idempotency key, in ONE
transaction (service/posting_batches.py): per stake, the answer a single stake sent with its key gets.

Crash: one transaction, so after a crash none of it happened (no key claimed, no money moved): a retry runs it afresh.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from sqlalchemy.ext.asyncio import AsyncSession

from wallet.adapters.ledger import PostedOperation
from wallet.domain import operations as ops
from wallet.service.posting_batches import Built, KeyedPosting, PostingBatches, RunAlone, built


@dataclass(frozen=True)
class KeyedStake:
    key: str
    fingerprint: str
    """Of the request a single stake with this key would be (domain/idempotency.py)."""
    player_id: str
    currency: str
    amount: int
    coupon_id: str | None


@dataclass(frozen=True)
class _Stake:
    draw_id: str
    stake: KeyedStake


async def _stakes(session: AsyncSession, requests: Sequence[_Stake]) -> list[Built]:
    """A stake's operation is the request's alone: nothing to read, nothing left to the single command."""
    return [
        built(
            functools.partial(
                ops.stake,
                player_id=request.stake.player_id,
                draw_id=request.draw_id,
                currency=request.stake.currency,
                amount=request.stake.amount,
                coupon_id=request.stake.coupon_id,
            )
        )
        for request in requests
    ]


class StakeBatches:
    def __init__(self, postings: PostingBatches) -> None:
        self.postings = postings

    async def run(
        self,
        scope: str,
        draw_id: str,
        stakes: Sequence[KeyedStake],
        acting: str | None,
        body_of: Callable[[PostedOperation], dict[str, Any]],
    ) -> list[tuple[int, dict[str, Any]]]:
        """Each stake's status and body, in order; `body_of` makes a posted stake's answer body."""
        answers = await self.postings.run(
            [
                KeyedPosting(scope, stake.key, stake.fingerprint, _Stake(draw_id, stake), _stakes, acting, body_of)
                for stake in stakes
            ]
        )
        assert not any(isinstance(answer, RunAlone) for answer in answers), "a stake is never left to run alone"
        return [(answer.status, answer.body) for answer in answers if not isinstance(answer, RunAlone)]
