"""The wallet's tournament operations as requests (path + body), and the client that sends them.

A money step stores its request as built here, so a step made again after a crash sends exactly the same body
with the same idempotency key, and the wallet answers it once (services/wallet/README.md).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Literal
from urllib.parse import quote

from tournament_director.adapters.http import Answer, AnswerClient
from tournament_director.adapters.tickets import Ticket
from tournament_director.domain.entries import Price

PaidEntryKind = Literal["buy_in", "rebuy", "add_on"]


@dataclass(frozen=True)
class WalletRequest:
    path: str
    body: dict[str, Any]


def _tournament(tournament_id: str, operation: str) -> str:
    return f"/internal/v1/tournaments/{quote(tournament_id, safe='')}/{operation}"


def paid_entry(
    tournament_id: str,
    kind: PaidEntryKind,
    player_id: str,
    currency: str,
    prize_part: int,
    fee: int,
    jackpot_contribution: int,
) -> WalletRequest:
    """Buy-in, rebuy or add-on: the prize part to the escrow, the fee to the player's concessionaire."""
    body = {
        "kind": kind,
        "player_id": player_id,
        "currency": currency,
        "prize_part": prize_part,
        "fee": fee,
        "jackpot_contribution": jackpot_contribution,
    }
    return WalletRequest(_tournament(tournament_id, "entries"), body)


def ticket_entry(tournament_id: str, player_id: str, currency: str, ticket: Ticket) -> WalletRequest:
    """A ticket's value moves from the escrow that backs it into this tournament's (P-3.4). A satellite's seat
    carries its fee to the player's concessionaire, as a buy-in would; a ticket given back for an entry does
    not charge it again (the concessionaire kept it)."""
    body = {
        "player_id": player_id,
        "satellite_tournament_id": ticket.source_tournament_id,
        "currency": currency,
        "prize_part": ticket.prize_part_cents,
        "fee": ticket.fee_cents if ticket.fee_in_escrow else 0,
    }
    return WalletRequest(_tournament(tournament_id, "satellite-entries"), body)


def sponsored_entry(
    tournament_id: str, player_id: str, concessionaire_id: str, currency: str, price: Price
) -> WalletRequest:
    """P-9.2: the prize part goes into the escrow; the fee only into the tax base with it (P-8.7)."""
    body = {
        "player_id": player_id,
        "concessionaire_id": concessionaire_id,
        "currency": currency,
        "amount": price.prize_part_cents,
        "fee": price.fee_cents,
    }
    return WalletRequest(_tournament(tournament_id, "sponsored-entries"), body)


def overlay(tournament_id: str, cause: str, concessionaire_id: str, currency: str, amount: int) -> WalletRequest:
    """`cause`: `guarantee` (P-8.3) or `cancellation` (P-10.11)."""
    body = {"cause": cause, "concessionaire_id": concessionaire_id, "currency": currency, "amount": amount}
    return WalletRequest(_tournament(tournament_id, "overlays"), body)


def payouts(tournament_id: str, currency: str, amounts: Sequence[tuple[str, int]]) -> WalletRequest:
    body = {"currency": currency, "payouts": [{"player_id": p, "amount": a} for p, a in amounts]}
    return WalletRequest(_tournament(tournament_id, "payouts"), body)


def bonus_prizes(
    tournament_id: str, concessionaire_id: str, currency: str, amounts: Sequence[tuple[str, int]]
) -> WalletRequest:
    """A bonus freeroll's prizes (P-9.3), from the concessionaire's own account to each player's bonus money."""
    body = {
        "concessionaire_id": concessionaire_id,
        "currency": currency,
        "prizes": [{"player_id": p, "amount": a} for p, a in amounts],
    }
    return WalletRequest(_tournament(tournament_id, "bonus-prizes"), body)


def refunds(tournament_id: str, currency: str, items: Sequence[tuple[str, int, int]]) -> WalletRequest:
    """(player, prize part, fee): the prize part from the escrow, the fee back from the margin (P-10.10)."""
    body = {"currency": currency, "refunds": [{"player_id": p, "prize_part": pp, "fee": f} for p, pp, f in items]}
    return WalletRequest(_tournament(tournament_id, "refunds"), body)


def tax_accrual(tournament_id: str, concessionaire_id: str, currency: str, amount: int) -> WalletRequest:
    body = {"concessionaire_id": concessionaire_id, "currency": currency, "amount": amount}
    return WalletRequest(_tournament(tournament_id, "tax-accruals"), body)


def jackpot_award(concessionaire_id: str, player_id: str, currency: str, amount: int) -> WalletRequest:
    body = {"player_id": player_id, "currency": currency, "amount": amount}
    return WalletRequest(f"/internal/v1/jackpots/{quote(concessionaire_id, safe='')}/awards", body)


class WalletClient(AnswerClient):
    async def send(self, request: WalletRequest, idempotency_key: str) -> Answer:
        return await self.post(request.path, request.body, idempotency_key=idempotency_key)

    async def open_account(self, player_id: str, concessionaire_id: str, currency: str) -> Answer:
        """Registers the player with its concessionaire and opens its account in `currency`; the wallet answers
        the existing account when it is already open, so this is safe to repeat."""
        return await self.post(
            f"/internal/v1/players/{quote(player_id, safe='')}/accounts",
            {"concessionaire_id": concessionaire_id, "currency": currency},
            idempotency_key=f"td:account:{player_id}:{currency}:{concessionaire_id}",
        )
