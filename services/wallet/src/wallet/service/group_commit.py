"""The wallet's group commit: concurrent money commands of the kinds that have a batch form (a partner's deposits
and withdrawals, a tournament's paid entries) are run together, whatever arrived while the last batch ran in the
next one, each batch ONE transaction (service/posting_batches.py), issue 14. Alone, every command pays a
transaction's round trips and its commit; in a batch it pays a share of them, and the hot accounts (a tournament's
escrow, a concessionaire's cash account) are locked once per batch instead of once per command.

Invariant: a command's answer is the one it gets alone (service/idempotent.py), under the same key. A command the
batch leaves alone (RUN_ALONE: a deposit under a deposit limit, an entry that opens the player's account) runs as
the single command it is, after its batch; so does every command of a batch that failed as a whole (a lost
connection, a deadlock): nothing of that batch was written, and each command then succeeds or fails on its own.

Crash: a batch is one transaction; a command whose caller stopped waiting still runs in its batch (its retry, under
the same key, learns the answer), as a single command whose caller went away does.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence

from platform_kit.keyed_batches import KeyedBatches
from prometheus_client import CollectorRegistry, Histogram

from wallet.service.idempotent import Command, IdempotentExecutor, Outcome
from wallet.service.posting_batches import RUN_ALONE, Answer, KeyedPosting, PostingBatches, RunAlone

log = logging.getLogger(__name__)

_ALL = "postings"
"""One queue: a batch at a time per process (two would only wait for each other's locks on the hot accounts)."""


class GroupCommit:
    def __init__(
        self, batches: PostingBatches, executor: IdempotentExecutor, registry: CollectorRegistry, *, max_size: int
    ) -> None:
        self.batches = batches
        self.executor = executor
        sizes = Histogram(
            "wallet_group_commit_batch_size",
            "Commands per group-commit transaction",
            buckets=(1, 2, 4, 8, 16, 32, 64, 128, 256),
            registry=registry,
        )
        self._queue = KeyedBatches[KeyedPosting, Answer | RunAlone](self._run, max_size=max_size, observe=sizes.observe)

    async def post(self, posting: KeyedPosting, alone: Command) -> Outcome:
        """`posting`'s answer, from its batch, or from `alone` (the single command) when the batch left it."""
        answer = await self._queue.submit(_ALL, posting)
        if isinstance(answer, RunAlone):
            return await self.executor.run(posting.scope, posting.key, posting.fingerprint, 201, alone)
        return answer

    async def _run(self, _: str, postings: Sequence[KeyedPosting]) -> Sequence[Answer | RunAlone]:
        try:
            return await self.batches.run(postings)
        except Exception:
            log.warning("A group commit of %d commands failed: each runs alone", len(postings), exc_info=True)
            return [RUN_ALONE] * len(postings)
