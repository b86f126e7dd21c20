"""Many money operations, each under its own idempotency key, in ONE transaction: what as many single commands
would do (service/idempotent.py), for the cost of one — the totalizator's stake batches and the wallet's own
group commit of concurrent requests (service/group_commit.py), issue 14.

Per posting the answer is the one the single command sent with its key gets, and either answers the other later:
a key already answered replays its first answer (409 idempotency_key_reused for another request), a new key is
claimed and its operation posted or refused.

The steps: each kind of posting builds its operations from its requests (`Builder`: pure, or reads that lock
nothing, made once for all the requests of the kind); a posting the batch cannot do as the single command would
(a deposit under a deposit limit, an entry that opens the player's account) is answered `RUN_ALONE` and nothing of
it is written: its caller runs the single command. The other keys are claimed in one statement, in (scope, key)
order: a key another transaction is claiming waits for it to end (then its answer is replayed), and two batches
sharing keys wait for each other's keys in one order, never in a cycle.

Invariant: a refusal rolls nothing back, since nothing of a posting is written before it is known to pass. Its
accounts are resolved (unknown_account; forbidden_concessionaire when acting for a concessionaire), then all the
batch's accounts are locked in id order (the order every wallet transaction locks them in) and their balances read;
the operations are covered in the batch's order from those balances (insufficient_funds for one that is not), and
only the covered ones are posted: the balances' single UPDATE at the end passes for certain. A refusal is stored
under its key in the same transaction, so the key keeps getting it, as a single command's does.

Crash: one transaction, so after a crash none of it happened (no key claimed, no money moved): a retry runs it afresh.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from typing import Any, Final

from platform_kit.unit_of_work import UnitsOfWork
from sqlalchemy.ext.asyncio import AsyncSession

from wallet.adapters import accounts, idempotency
from wallet.adapters import ledger as ledger_rows
from wallet.adapters.idempotency import Claim
from wallet.adapters.ledger import PostedOperation
from wallet.domain.errors import InsufficientFunds, Refusal
from wallet.domain.ledger import Shortfall, account_changes, cover_in_turn
from wallet.domain.operations import Operation
from wallet.service import balance_updates
from wallet.service.idempotent import IdempotentExecutor, KeyPurged, Outcome
from wallet.service.ledger import Ledger, check_acting
from wallet.service.refusals import problem_body, status_of

Answer = Outcome
"""A posting's answer: status, body (the operation, or the problem), and whether it is the key's first answer
again."""


class RunAlone:
    """A posting the batch leaves to the single command (nothing of it written, its key not claimed)."""

    def __repr__(self) -> str:
        return "RUN_ALONE"


RUN_ALONE: Final = RunAlone()

Built = Operation | Refusal | RunAlone
Builder = Callable[[AsyncSession, Sequence[Any]], Awaitable[Sequence[Built]]]
"""`builder(session, requests)`: each request's operation, or its refusal, or RUN_ALONE."""


@dataclass(frozen=True)
class KeyedPosting:
    scope: str
    key: str
    fingerprint: str
    """Of the request the single command with this key would be (domain/idempotency.py)."""
    request: Any
    builder: Builder
    acting: str | None
    body_of: Callable[[PostedOperation], dict[str, Any]]
    """A posted operation's answer body (status 201)."""

    @property
    def claim(self) -> Claim:
        return self.scope, self.key


class PostingBatches:
    def __init__(self, units: UnitsOfWork, ledger: Ledger, executor: IdempotentExecutor) -> None:
        self.units = units
        self.ledger = ledger
        self.outcomes = executor.outcomes  # counted as single commands are: executed, refused, replayed, key_reused

    async def run(self, postings: Sequence[KeyedPosting]) -> list[Answer | RunAlone]:
        """Each posting's answer, in order."""
        try:
            return await self._run(postings)
        except KeyPurged:  # a key found taken was purged before its answer was read: it is new again
            return await self._run(postings)

    async def _run(self, postings: Sequence[KeyedPosting]) -> list[Answer | RunAlone]:
        firsts: dict[Claim, KeyedPosting] = {}
        for posting in postings:
            firsts.setdefault(posting.claim, posting)
        async with self.units.unit() as uow:
            session = uow.session
            built = await _build(session, list(firsts.values()))
            claimed = await idempotency.claim_many(
                session, {claim: firsts[claim].fingerprint for claim in built}, self.ledger.now()
            )
            answers: dict[Claim, Answer | RunAlone] = {claim: RUN_ALONE for claim in firsts if claim not in built}
            answers |= await self._replays(session, [firsts[claim] for claim in built if claim not in claimed])
            balance_updates.defer(session)
            new = await self._post(session, [(firsts[claim], built[claim]) for claim in sorted(claimed)])
            await idempotency.answer_many(
                session, [idempotency.answer(*claim, answer.status, answer.body) for claim, answer in new.items()]
            )
            await balance_updates.settle(session)
        for answer in new.values():
            self.outcomes.labels("executed" if answer.status == 201 else "refused").inc()
        answers |= new
        return [self._answer(posting, firsts[posting.claim], answers[posting.claim]) for posting in postings]

    def _answer(self, posting: KeyedPosting, first: KeyedPosting, answer: Answer | RunAlone) -> Answer | RunAlone:
        """A posting's answer; a key sent twice in the batch answers the second as a retry of the first."""
        if posting is first or isinstance(answer, RunAlone):
            return answer
        return self._replayed(posting, first.fingerprint, answer)

    async def _replays(self, session: AsyncSession, postings: Sequence[KeyedPosting]) -> dict[Claim, Answer]:
        if not postings:
            return {}
        stored = await idempotency.stored_many(session, [posting.claim for posting in postings])
        if len(stored) < len(postings):
            raise KeyPurged
        return {
            posting.claim: self._replayed(posting, stored[posting.claim].fingerprint, _stored(stored[posting.claim]))
            for posting in postings
        }

    def _replayed(self, posting: KeyedPosting, fingerprint: str, answer: Answer) -> Answer:
        if fingerprint != posting.fingerprint:
            self.outcomes.labels("key_reused").inc()
            message = "This Idempotency-Key was already used for a different request."
            problem = problem_body(409, "idempotency_key_reused", message, {"idempotency_key": posting.key})
            return Outcome(409, problem, replayed=False)
        self.outcomes.labels("replayed").inc()
        return Outcome(answer.status, answer.body, replayed=True)

    async def _post(
        self, session: AsyncSession, postings: Sequence[tuple[KeyedPosting, Operation | Refusal]]
    ) -> dict[Claim, Answer]:
        """The claimed postings: each posted, or refused without writing anything."""
        answers: dict[Claim, Answer] = {}
        operations = []
        for posting, operation in postings:
            if isinstance(operation, Refusal):
                answers[posting.claim] = _refused(operation)
            else:
                operations.append((posting, operation))
        resolved = await self.ledger.directory.resolve_each(
            session, [operation.accounts for _, operation in operations], self.ledger.now()
        )
        checked = []
        for (posting, operation), found in zip(operations, resolved, strict=True):
            try:
                if isinstance(found, Refusal):
                    raise found
                if posting.acting is not None:
                    check_acting(posting.acting, found.values())
            except Refusal as refusal:
                answers[posting.claim] = _refused(refusal)
            else:
                changes = {found[key].id: change for key, change in account_changes(operation.legs, {}).items()}
                checked.append((posting, operation, found, changes))
        if not checked:
            return answers
        ids = await ledger_rows.reserve_operation_ids(session, len(checked))  # before the locks: not under them
        available = await accounts.lock_available(session, [a for *_, changes in checked for a in changes])
        shortfalls = cover_in_turn(available, [changes for *_, changes in checked])
        covered = [
            (posting, operation, found)
            for (posting, operation, found, _), short in zip(checked, shortfalls, strict=True)
            if short is None
        ]
        posted = await self.ledger.post_many(session, [(operation, found) for _, operation, found in covered], ids)
        for (posting, *_), one in zip(covered, posted, strict=True):
            answers[posting.claim] = Outcome(201, posting.body_of(one), replayed=False)
        for (posting, _, found, _), short in zip(checked, shortfalls, strict=True):
            if short is not None:
                answers[posting.claim] = _refused(_insufficient(short, found.values()))
        return answers


async def _build(session: AsyncSession, postings: Sequence[KeyedPosting]) -> dict[Claim, Operation | Refusal]:
    """Each posting's operation or refusal, every builder called once with all its kind's requests; a posting left
    to run alone is not in the answer."""
    kinds: dict[Builder, list[KeyedPosting]] = {}
    for posting in postings:
        kinds.setdefault(posting.builder, []).append(posting)
    built: dict[Claim, Operation | Refusal] = {}
    for builder, of_kind in kinds.items():
        outcomes = await builder(session, [posting.request for posting in of_kind])
        for posting, outcome in zip(of_kind, outcomes, strict=True):
            if not isinstance(outcome, RunAlone):
                built[posting.claim] = outcome
    return built


def _stored(stored: idempotency.StoredResponse) -> Answer:
    return Outcome(stored.status, stored.body, replayed=True)


def _refused(refusal: Refusal) -> Answer:
    status = status_of(refusal)
    return Outcome(status, problem_body(status, refusal.code, refusal.message, refusal.details), replayed=False)


def _insufficient(short: Shortfall, found: Any) -> InsufficientFunds:
    """The refusal a single command gets from `apply_changes` (adapters/accounts.py), in the same words."""
    key = next(account.key for account in found if account.id == short.account)
    return accounts.insufficient_funds(key, short.available, short.needed)


def built(operation: Callable[[], Operation]) -> Operation | Refusal:
    """A builder's answer for one request: `operation()`, or the refusal its rules raise (a bad amount …)."""
    try:
        return operation()
    except Refusal as refusal:
        return refusal
