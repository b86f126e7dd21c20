"""The accounts of the ledger: who owns them, in which currency, and whether they may go below zero.

An account is identified by its kind, its owner and its currency. A balance is credits minus debits, so a
player's positive balance is money the platform holds for that player, and the outside world's "cash" account
goes negative by exactly what concessionaires' cashiers brought in. Across all accounts of one currency the
balances always sum to zero.

Which accounts may go negative (and why):

| kind | owner | may go negative | why |
|---|---|---|---|
| player | player | no | a player never spends money they do not have (no overdraft) |
| bonus | player | no | bonus prizes (P-9.3): the player's, but not withdrawable, so kept apart from its cash |
| tournament_escrow | tournament | no | prizes and refunds cannot pay out more than was collected plus overlays |
| draw_pool | draw | no | same for a totalizator draw, per currency |
| jackpot_fund | concessionaire | no | a progressive jackpot pays only what was contributed to it (P-8.6) |
| tax | concessionaire | no | only ever credited with accrued tax |
| cash | concessionaire | yes | the outside world: deposits come from it, withdrawals go to it |
| margin | concessionaire | yes | fees in; a refund's fee reversal (P-10.10) may exceed what is left |
| sponsorship | concessionaire | yes | guarantee overlays (P-8.3) and sponsored entries (P-9.2) are promises to players: never refused, a negative balance is what the concessionaire owes until it funds the account |
| network | the network | yes | the organizer's own funds: totalizator top-ups (T-6.2) come from outside the pools |
| totalizator_jackpot | the network | yes | the jackpot is announced in USD and carried in several currencies, so one currency's part can be paid out beyond what that currency carried in |
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

NETWORK_OWNER = "network"


class AccountKind(StrEnum):
    PLAYER = "player"
    BONUS = "bonus"
    TOURNAMENT_ESCROW = "tournament_escrow"
    DRAW_POOL = "draw_pool"
    JACKPOT_FUND = "jackpot_fund"
    TAX = "tax"
    CASH = "cash"
    MARGIN = "margin"
    SPONSORSHIP = "sponsorship"
    NETWORK = "network"
    TOTALIZATOR_JACKPOT = "totalizator_jackpot"

    @property
    def may_go_negative(self) -> bool:
        return self in _MAY_GO_NEGATIVE

    @property
    def owned_by_concessionaire(self) -> bool:
        return self in CONCESSIONAIRE_KINDS

    @property
    def owned_by_player(self) -> bool:
        return self in PLAYER_KINDS

    @property
    def one_currency_per_owner(self) -> bool:
        """A tournament is played in one currency: its escrow cannot be opened in a second one."""
        return self is AccountKind.TOURNAMENT_ESCROW


_MAY_GO_NEGATIVE = frozenset(
    {
        AccountKind.CASH,
        AccountKind.MARGIN,
        AccountKind.SPONSORSHIP,
        AccountKind.NETWORK,
        AccountKind.TOTALIZATOR_JACKPOT,
    }
)
# A player's cash (the only money a withdrawal takes) and its bonus money.
PLAYER_KINDS = frozenset({AccountKind.PLAYER, AccountKind.BONUS})
CONCESSIONAIRE_KINDS = frozenset(
    {AccountKind.CASH, AccountKind.MARGIN, AccountKind.SPONSORSHIP, AccountKind.JACKPOT_FUND, AccountKind.TAX}
)


@dataclass(frozen=True, order=True)
class AccountKey:
    kind: AccountKind
    owner: str
    currency: str

    @classmethod
    def player(cls, player_id: str, currency: str) -> AccountKey:
        return cls(AccountKind.PLAYER, player_id, currency)

    @classmethod
    def bonus(cls, player_id: str, currency: str) -> AccountKey:
        return cls(AccountKind.BONUS, player_id, currency)

    @classmethod
    def escrow(cls, tournament_id: str, currency: str) -> AccountKey:
        return cls(AccountKind.TOURNAMENT_ESCROW, tournament_id, currency)

    @classmethod
    def pool(cls, draw_id: str, currency: str) -> AccountKey:
        return cls(AccountKind.DRAW_POOL, draw_id, currency)

    @classmethod
    def of_concessionaire(cls, kind: AccountKind, concessionaire_id: str, currency: str) -> AccountKey:
        assert kind.owned_by_concessionaire, kind
        return cls(kind, concessionaire_id, currency)

    @classmethod
    def of_network(cls, kind: AccountKind, currency: str) -> AccountKey:
        assert kind in (AccountKind.NETWORK, AccountKind.TOTALIZATOR_JACKPOT), kind
        return cls(kind, NETWORK_OWNER, currency)

    @property
    def concessionaire_id(self) -> str | None:
        """The concessionaire an account belongs to, when the key alone tells (players' are looked up)."""
        return self.owner if self.kind.owned_by_concessionaire else None

    def __str__(self) -> str:
        return f"{self.kind}:{self.owner}:{self.currency}"
