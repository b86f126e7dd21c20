"""The wallet's tournament operations as requests (path + body), and the client that sends them. The paths and
bodies are the wallet's own declarations (platform_kit.wallet_operations): a body is built from the wallet's
own schema (`model_construct`: its fields are checked by the type checker, its values by the wallet, whose
refusal the money step records as before).

A money step (adapters/money_steps.py) stores its request as built here, so a step made again after a crash sends exactly the same body
with the same idempotency key, and the wallet answers it once (services/wallet/README.md).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Literal, cast

from platform_kit import wallet_operations as wo
from platform_kit.wallet_operations import WalletRequest

from tournament_director.adapters.http import Answer, AnswerClient
from tournament_director.adapters.tickets import Ticket
from tournament_director.domain.entries import Price

__all__ = ["WalletClient", "WalletRequest"]

PaidEntryKind = Literal["buy_in", "rebuy", "add_on"]


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
    body = wo.EntryIn.model_construct(
        kind=kind,
        player_id=player_id,
        currency=currency,
        prize_part=prize_part,
        fee=fee,
        jackpot_contribution=jackpot_contribution,
    )
    return wo.PAID_ENTRY.request(body, tournament_id=tournament_id)


def ticket_entry(tournament_id: str, player_id: str, currency: str, ticket: Ticket) -> WalletRequest:
    """A ticket's value moves from the escrow that backs it into this tournament's (P-3.4). A satellite's seat
    carries its fee to the player's concessionaire, as a buy-in would; a ticket given back for an entry does
    not charge it again (the concessionaire kept it)."""
    body = wo.SatelliteEntryIn.model_construct(
        player_id=player_id,
        satellite_tournament_id=ticket.source_tournament_id,
        currency=currency,
        prize_part=ticket.prize_part_cents,
        fee=ticket.fee_cents if ticket.fee_in_escrow else 0,
    )
    return wo.SATELLITE_ENTRY.request(body, tournament_id=tournament_id)


def sponsored_entry(
    tournament_id: str, player_id: str, concessionaire_id: str, currency: str, price: Price
) -> WalletRequest:
    """P-9.2: the prize part goes into the escrow; the fee only into the tax base with it (P-8.7)."""
    body = wo.SponsoredEntryIn.model_construct(
        player_id=player_id,
        concessionaire_id=concessionaire_id,
        currency=currency,
        amount=price.prize_part_cents,
        fee=price.fee_cents,
    )
    return wo.SPONSORED_ENTRY.request(body, tournament_id=tournament_id)


def overlay(tournament_id: str, cause: str, concessionaire_id: str, currency: str, amount: int) -> WalletRequest:
    """`cause`: `guarantee` (P-8.3) or `cancellation` (P-10.11); the wallet judges it, as every value of a body."""
    body = wo.OverlayIn.model_construct(
        cause=cast(wo.OverlayCause, cause), concessionaire_id=concessionaire_id, currency=currency, amount=amount
    )
    return wo.OVERLAY.request(body, tournament_id=tournament_id)


def payouts(tournament_id: str, currency: str, amounts: Sequence[tuple[str, int]]) -> WalletRequest:
    lines = [wo.PlayerAmount.model_construct(player_id=p, amount=a) for p, a in amounts]
    return wo.PRIZE_PAYOUTS.request(
        wo.PayoutsIn.model_construct(currency=currency, payouts=lines), tournament_id=tournament_id
    )


def bonus_prizes(
    tournament_id: str, concessionaire_id: str, currency: str, amounts: Sequence[tuple[str, int]]
) -> WalletRequest:
    """A bonus freeroll's prizes (P-9.3), from the concessionaire's own account to each player's bonus money."""
    prizes = [wo.PlayerPrizeIn.model_construct(player_id=p, amount=a) for p, a in amounts]
    body = wo.BonusPrizesIn.model_construct(concessionaire_id=concessionaire_id, currency=currency, prizes=prizes)
    return wo.BONUS_PRIZES.request(body, tournament_id=tournament_id)


def refunds(tournament_id: str, currency: str, items: Sequence[tuple[str, int, int]]) -> WalletRequest:
    """(player, prize part, fee): the prize part from the escrow, the fee back from the margin (P-10.10)."""
    lines = [wo.EntryRefundIn.model_construct(player_id=p, prize_part=pp, fee=f) for p, pp, f in items]
    return wo.REFUNDS.request(
        wo.RefundsIn.model_construct(currency=currency, refunds=lines), tournament_id=tournament_id
    )


def tax_accrual(tournament_id: str, concessionaire_id: str, currency: str, amount: int) -> WalletRequest:
    body = wo.TaxAccrualIn.model_construct(concessionaire_id=concessionaire_id, currency=currency, amount=amount)
    return wo.TAX_ACCRUAL.request(body, tournament_id=tournament_id)


def jackpot_award(concessionaire_id: str, player_id: str, currency: str, amount: int) -> WalletRequest:
    body = wo.JackpotAwardIn.model_construct(player_id=player_id, currency=currency, amount=amount)
    return wo.JACKPOT_AWARD.request(body, concessionaire_id=concessionaire_id)


class WalletClient(AnswerClient):
    """The wallet calls that are not money steps (those the kit's outgoing calls make: adapters/money_steps.py)."""

    async def open_account(self, player_id: str, concessionaire_id: str, currency: str) -> Answer:
        """Registers the player with its concessionaire and opens its account in `currency`; the wallet answers
        the existing account when it is already open, so this is safe to repeat."""
        body = wo.OpenAccountIn.model_construct(concessionaire_id=concessionaire_id, currency=currency)
        request = wo.OPEN_ACCOUNT.request(body, player_id=player_id)
        return await self.post(
            request.path, request.body, idempotency_key=f"td:account:{player_id}:{currency}:{concessionaire_id}"
        )
