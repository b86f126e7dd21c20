"""A batch of a draw's stakes (a totalizator's closing rush, issue 14), each under its own idempotency key, in ONE
transaction: what as many single stakes would do (service/idempotent.py), for the cost of one.

Per stake the answer is the one a single stake sent with its key gets, and either answers the other later: a key
already answered replays its first answer (409 idempotency_key_reused for another request), a new key is claimed
and its stake posted or refused. The keys are claimed first, in one statement and in key order: a key another
transaction is claiming waits for it to end (then its answer is replayed), and two batches sharing keys (a retry
overlapping a retry) wait for each other's keys in one order, never in a cycle.

Invariant: a refusal rolls nothing back, since nothing of a stake is written before it is known to pass. Its
accounts are resolved (unknown_account; forbidden_concessionaire when acting for a concessionaire), then all the
batch's accounts are locked in id order (the order every wallet transaction locks them in) and their balances read;
the stakes are covered in the batch's order from those balances (insufficient_funds for one that is not), and only
the covered ones are posted: the balances' single UPDATE at the end passes for certain. A refusal is stored under
its key in the same transaction, so the key keeps getting it, as a single stake's does.

Crash: one transaction, so after a crash none of it happened (no key claimed, no money moved): a retry runs it afresh.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from platform_kit.unit_of_work import UnitsOfWork
from sqlalchemy.ext.asyncio import AsyncSession

from wallet.adapters import accounts, idempotency
from wallet.adapters import ledger as ledger_rows
from wallet.adapters.ledger import PostedOperation
from wallet.domain import operations as ops
from wallet.domain.errors import InsufficientFunds, Refusal
from wallet.domain.ledger import Shortfall, account_changes, cover_in_turn
from wallet.service import balance_updates
from wallet.service.idempotent import IdempotentExecutor, KeyPurged
from wallet.service.ledger import Ledger, check_acting
from wallet.service.refusals import problem_body, status_of

Answer = tuple[int, dict[str, Any]]
"""A stake's answer: status, body (the operation, or the problem)."""


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
class _Batch:
    scope: str
    draw_id: str
    stakes: Sequence[KeyedStake]
    acting: str | None
    body_of: Callable[[PostedOperation], dict[str, Any]]


class StakeBatches:
    def __init__(self, units: UnitsOfWork, ledger: Ledger, executor: IdempotentExecutor) -> None:
        self.units = units
        self.ledger = ledger
        self.outcomes = executor.outcomes  # counted as single commands are: executed, refused, replayed, key_reused

    async def run(
        self,
        scope: str,
        draw_id: str,
        stakes: Sequence[KeyedStake],
        acting: str | None,
        body_of: Callable[[PostedOperation], dict[str, Any]],
    ) -> list[Answer]:
        """Each stake's answer, in order; `body_of` makes a posted stake's answer body."""
        batch = _Batch(scope, draw_id, stakes, acting, body_of)
        try:
            return await self._run(batch)
        except KeyPurged:  # a key found taken was purged before its answer was read: it is new again
            return await self._run(batch)

    async def _run(self, batch: _Batch) -> list[Answer]:
        scope, stakes = batch.scope, batch.stakes
        firsts: dict[str, KeyedStake] = {}
        for stake in stakes:
            firsts.setdefault(stake.key, stake)
        async with self.units.unit() as uow:
            session = uow.session
            claimed = await idempotency.claim_many(
                session, scope, {key: stake.fingerprint for key, stake in firsts.items()}, self.ledger.now()
            )
            answers = await self._replays(
                session, scope, [stake for stake in firsts.values() if stake.key not in claimed]
            )
            balance_updates.defer(session)
            posted = await self._post(session, batch.draw_id, [firsts[key] for key in sorted(claimed)], batch.acting)
            new = {key: (201, batch.body_of(outcome)) if isinstance(outcome, PostedOperation) else outcome
                   for key, outcome in posted.items()}  # fmt: skip
            await idempotency.answer_many(
                session, [idempotency.answer(scope, key, status, body) for key, (status, body) in new.items()]
            )
            await balance_updates.settle(session)
        for status, _ in new.values():
            self.outcomes.labels("executed" if status == 201 else "refused").inc()
        answers |= new
        return [self._answer(stake, firsts[stake.key], answers[stake.key]) for stake in stakes]

    def _answer(self, stake: KeyedStake, first: KeyedStake, answer: Answer) -> Answer:
        """A stake's answer; a key sent twice in the batch answers the second as a retry of the first."""
        if stake is first:
            return answer
        return self._replayed(stake, first.fingerprint, answer)

    async def _replays(self, session: AsyncSession, scope: str, stakes: Sequence[KeyedStake]) -> dict[str, Answer]:
        if not stakes:
            return {}
        stored = await idempotency.stored_many(session, scope, [stake.key for stake in stakes])
        if len(stored) < len(stakes):
            raise KeyPurged
        return {
            stake.key: self._replayed(stake, stored[stake.key].fingerprint, _stored(stored[stake.key]))
            for stake in stakes
        }

    def _replayed(self, stake: KeyedStake, fingerprint: str, answer: Answer) -> Answer:
        if fingerprint != stake.fingerprint:
            self.outcomes.labels("key_reused").inc()
            message = "This Idempotency-Key was already used for a different request."
            return 409, problem_body(409, "idempotency_key_reused", message, {"idempotency_key": stake.key})
        self.outcomes.labels("replayed").inc()
        return answer

    async def _post(
        self, session: AsyncSession, draw_id: str, stakes: Sequence[KeyedStake], acting: str | None
    ) -> dict[str, PostedOperation | Answer]:
        """The new stakes: each posted, or refused without writing anything."""
        answers: dict[str, PostedOperation | Answer] = {}
        operations = []
        for stake in stakes:
            try:
                operation = ops.stake(
                    player_id=stake.player_id,
                    draw_id=draw_id,
                    currency=stake.currency,
                    amount=stake.amount,
                    coupon_id=stake.coupon_id,
                )
            except Refusal as refusal:
                answers[stake.key] = _refused(refusal)
            else:
                operations.append((stake, operation))
        resolved = await self.ledger.directory.resolve_each(
            session, [operation.accounts for _, operation in operations], self.ledger.now()
        )
        checked = []
        for (stake, operation), found in zip(operations, resolved, strict=True):
            try:
                if isinstance(found, Refusal):
                    raise found
                if acting is not None:
                    check_acting(acting, found.values())
            except Refusal as refusal:
                answers[stake.key] = _refused(refusal)
            else:
                changes = {found[key].id: change for key, change in account_changes(operation.legs, {}).items()}
                checked.append((stake, operation, found, changes))
        if not checked:
            return answers
        ids = await ledger_rows.reserve_operation_ids(session, len(checked))  # before the locks: not under them
        available = await accounts.lock_available(session, [a for *_, changes in checked for a in changes])
        shortfalls = cover_in_turn(available, [changes for *_, changes in checked])
        covered = [
            (stake, operation, found)
            for (stake, operation, found, _), short in zip(checked, shortfalls, strict=True)
            if short is None
        ]
        posted = await self.ledger.post_many(session, [(operation, found) for _, operation, found in covered], ids)
        for (stake, *_), one in zip(covered, posted, strict=True):
            answers[stake.key] = one
        for (stake, _, found, _), short in zip(checked, shortfalls, strict=True):
            if short is not None:
                answers[stake.key] = _refused(_insufficient(short, found.values()))
        return answers


def _stored(stored: idempotency.StoredResponse) -> Answer:
    return stored.status, stored.body


def _refused(refusal: Refusal) -> Answer:
    status = status_of(refusal)
    return status, problem_body(status, refusal.code, refusal.message, refusal.details)


def _insufficient(short: Shortfall, found: Any) -> InsufficientFunds:
    """The refusal a single stake gets from `apply_changes` (adapters/accounts.py), in the same words."""
    key = next(account.key for account in found if account.id == short.account)
    return InsufficientFunds(
        f"Account {key} has {short.available} available, {short.needed} needed.",
        account=str(key),
        available=short.available,
        needed=short.needed,
    )
