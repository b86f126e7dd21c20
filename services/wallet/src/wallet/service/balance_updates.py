"""When a transaction's balance changes reach the accounts: at once, or together as its last statement.

Every money operation of a tournament's registration rush changes the same escrow and the same margin; those
rows stay locked from their UPDATE to the commit, so that span bounds how many operations per second they
take. The idempotent executor therefore defers the changes of its command: they are added up per account and
applied in one statement after the command's answer is stored, right before the commit. Nothing of the
command may read a balance it changed (none does: answers are built from the operations and holds written).
The expiry sweep defers too, to release a whole batch of holds in one statement. Elsewhere (scripts), changes
are applied at once.
"""

from __future__ import annotations

from collections.abc import Mapping

from sqlalchemy.ext.asyncio import AsyncSession

from wallet.adapters.accounts import apply_changes
from wallet.domain.ledger import AccountChange

_DEFERRED = "wallet.deferred_account_changes"


def defer(session: AsyncSession) -> None:
    """From now on, this transaction's changes wait for `settle`."""
    session.info[_DEFERRED] = {}


async def change(session: AsyncSession, changes: Mapping[int, AccountChange]) -> None:
    """Change accounts (by id), or note the changes if the transaction defers them."""
    deferred: dict[int, AccountChange] | None = session.info.get(_DEFERRED)
    if deferred is None:
        await apply_changes(session, changes)
        return
    for account_id, account_change in changes.items():
        deferred[account_id] = deferred.get(account_id, AccountChange()) + account_change


async def settle(session: AsyncSession) -> None:
    """Apply the deferred changes (refused whole, with InsufficientFunds, if an account does not cover its
    own); later changes of the transaction are applied at once."""
    await apply_changes(session, session.info.pop(_DEFERRED, {}))
