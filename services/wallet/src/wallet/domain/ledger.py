"""How an operation changes balances: the net change per account, and the order the accounts are locked in."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable

from wallet.domain.accounts import AccountKey
from wallet.domain.operations import Leg


def net_changes(legs: Iterable[Leg]) -> dict[AccountKey, int]:
    """Credits minus debits per account. A buy-in debits the player twice (prize part and fee): the player's
    balance is checked and changed once, by the sum."""
    changes: dict[AccountKey, int] = defaultdict(int)
    for leg in legs:
        changes[leg.debit] -= leg.amount
        changes[leg.credit] += leg.amount
    return {key: change for key, change in changes.items() if change}


def lock_order(may_go_negative: bool, account_id: int) -> tuple[bool, int]:
    """Every transaction updates account rows in this one total order, so two transactions can never wait on
    each other in a cycle (no deadlocks). Accounts that may go negative (margins, cash, the network) are the
    busiest and need no balance check: they come last, so their row locks are held the shortest time."""
    return (may_go_negative, account_id)
