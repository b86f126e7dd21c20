"""When a transaction's balance changes reach the accounts: at once, or together as its last statement.

Every money operation of a tournament's registration rush changes the same escrow and the same margin; those
rows stay locked from their UPDATE to the commit, so that span bounds how many operations per second they
take. The idempotent executor therefore defers the changes of its command: they are added up per account and
applied in one statement after the command has run, right before the commit. Nothing of the command may read a
balance it changed (none does: answers are built from the operations and holds written). The command's events
are deferred with them, and the answer stored under its key is given to `settle`: on PostgreSQL all three are one
statement (adapters/riders.py), so a command's answer, events and balances are one round trip. The expiry sweep
defers too, to release a whole batch of holds in one statement. Elsewhere (scripts), changes and events are
written at once.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from platform_kit.events.base import Event
from platform_kit.outbox import Outbox
from sqlalchemy.ext.asyncio import AsyncSession

from wallet.adapters.accounts import apply_changes
from wallet.adapters.riders import Riders
from wallet.domain.ledger import AccountChange

_DEFERRED = "wallet.deferred_writes"


@dataclass
class _Deferred:
    changes: dict[int, AccountChange] = field(default_factory=dict)
    events: list[dict[str, Any]] = field(default_factory=list)
    outbox: Outbox | None = None


def defer(session: AsyncSession) -> None:
    """From now on, this transaction's balance changes and events wait for `settle`."""
    session.info[_DEFERRED] = _Deferred()


async def change(session: AsyncSession, changes: Mapping[int, AccountChange]) -> None:
    """Change accounts (by id), or note the changes if the transaction defers them."""
    deferred: _Deferred | None = session.info.get(_DEFERRED)
    if deferred is None:
        await apply_changes(session, changes)
        return
    for account_id, account_change in changes.items():
        deferred.changes[account_id] = deferred.changes.get(account_id, AccountChange()) + account_change


async def emit(session: AsyncSession, outbox: Outbox, event: Event, *, occurred_at: datetime) -> None:
    """Write `event` to the outbox, or note it (in order) if the transaction defers its writes."""
    deferred: _Deferred | None = session.info.get(_DEFERRED)
    if deferred is None:
        await outbox.add(session, event, occurred_at=occurred_at)
        return
    deferred.events.append(outbox.row(event, occurred_at=occurred_at))
    deferred.outbox = outbox


async def settle(session: AsyncSession, answer: Mapping[str, Any] | None = None) -> None:
    """Apply the deferred changes (refused whole, with InsufficientFunds, if an account does not cover its
    own) and write the deferred events, with `answer` (`idempotency.answer`) if given; later changes and events
    of the transaction are written at once."""
    deferred: _Deferred = session.info.pop(_DEFERRED, _Deferred())
    await apply_changes(session, deferred.changes, Riders(answer, tuple(deferred.events)))
    if deferred.outbox is not None:
        deferred.outbox.wake_after_commit(session)
