"""A draw's life cycle: which state it is in, and what operators and players may do in each.

    draft ──announce──▶ open ──closing time──▶ closed ──settle──▶ settling ──payouts done──▶ settled
      │                  │                       │
      └──cancel──▶ cancelled   └──cancel──▶ cancelling ──refunds done──▶ cancelled

A draft is being prepared (matches, currencies, FX rates, top-up) and is not public. An open draw takes
bets until its closing time (T-2.5). A closed draw takes results, kick-off times and void decisions; it is
settled (T-3–T-6, or refunded under T-5.5) or cancelled with every stake refunded.
"""

from __future__ import annotations

from enum import StrEnum


class DrawStatus(StrEnum):
    DRAFT = "draft"
    OPEN = "open"
    CLOSED = "closed"
    SETTLING = "settling"
    SETTLED = "settled"
    CANCELLING = "cancelling"
    CANCELLED = "cancelled"

    @property
    def is_public(self) -> bool:
        return self is not DrawStatus.DRAFT

    @property
    def may_cancel(self) -> bool:
        """Until settlement starts; a draw being settled pays out, it is not cancelled."""
        return self in (DrawStatus.DRAFT, DrawStatus.OPEN, DrawStatus.CLOSED)

    @property
    def may_change_matches(self) -> bool:
        """Kick-off times and void decisions (T-5.1): while bets are taken and until settlement."""
        return self in (DrawStatus.OPEN, DrawStatus.CLOSED)

    @property
    def may_enter_results(self) -> bool:
        """Results exist once bets are closed; they (and corrections) are frozen by settlement."""
        return self is DrawStatus.CLOSED

    @property
    def is_finished(self) -> bool:
        return self in (DrawStatus.SETTLED, DrawStatus.CANCELLED)
