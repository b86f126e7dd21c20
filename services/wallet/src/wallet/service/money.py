"""The money operations other services and concessionaires call. Each runs inside the caller's transaction
(the idempotent executor's), so it is atomic with its idempotency key and its events."""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from platform_kit.events.wallet import AccountOpened
from sqlalchemy.ext.asyncio import AsyncSession

from wallet.adapters import ledger as ledger_rows
from wallet.adapters.accounts import Account, unknown_player
from wallet.adapters.ledger import PostedOperation
from wallet.domain import operations as ops
from wallet.domain.accounts import AccountKey, AccountKind
from wallet.domain.currencies import currency as known_currency
from wallet.domain.errors import AlreadyReversed, NotReversible
from wallet.domain.operations import EntryRefund, OperationKind
from wallet.service.deposit_limits import DepositLimits
from wallet.service.ledger import Ledger, check_acting
from wallet.service.posting_batches import RUN_ALONE, Built, built

# Money in and out through the concessionaire's cashier: (player, concessionaire, currency, amount, reference).
CASH_OPERATIONS: dict[OperationKind, Callable[[str, str, str, int, str | None], ops.Operation]] = {
    OperationKind.DEPOSIT: ops.deposit,
    OperationKind.WITHDRAWAL: ops.withdrawal,
}


@dataclass(frozen=True)
class CashRequest:
    """A deposit or withdrawal the concessionaire reports (`Money.cash`'s arguments)."""

    kind: OperationKind
    concessionaire_id: str
    player_id: str
    currency: str
    amount: int
    reference: str | None

    def operation(self) -> ops.Operation:
        return CASH_OPERATIONS[self.kind](
            self.player_id, self.concessionaire_id, self.currency, self.amount, self.reference
        )


@dataclass(frozen=True)
class EntryRequest:
    """A paid entry into a tournament (`Money.paid_entry`'s arguments)."""

    kind: OperationKind
    tournament_id: str
    player_id: str
    currency: str
    prize_part: int
    fee: int
    jackpot_contribution: int
    acting: str | None

    def operation(self, concessionaire_id: str) -> ops.Operation:
        return ops.paid_entry(
            self.kind,
            player_id=self.player_id,
            concessionaire_id=concessionaire_id,
            tournament_id=self.tournament_id,
            currency=self.currency,
            prize_part=self.prize_part,
            fee=self.fee,
            jackpot_contribution=self.jackpot_contribution,
        )


class Money:
    def __init__(self, ledger: Ledger, deposit_limits: DepositLimits) -> None:
        self.ledger = ledger
        self.directory = ledger.directory
        self.deposit_limits = deposit_limits

    # -- accounts ---------------------------------------------------------------------------------------------
    async def open_player_account(
        self, session: AsyncSession, player_id: str, concessionaire_id: str, currency: str
    ) -> tuple[Account, bool]:
        """Registers the player with its concessionaire (for good) and opens its account in `currency`.
        Returns the account and whether it was opened now (False: it already was)."""
        known_currency(currency)
        now = self.ledger.now()
        await self.directory.register_player(session, player_id, concessionaire_id, now)
        key = AccountKey.player(player_id, currency)
        existing = await self.directory.find(session, key)
        if existing is not None:
            return existing, False
        account = await self.directory.open(session, key, concessionaire_id, now)
        await self.ledger.emit(
            session,
            AccountOpened(
                account_id=account.id, player_id=player_id, concessionaire_id=concessionaire_id, currency=currency
            ),
            occurred_at=now,
        )
        return account, True

    async def _entrant(self, session: AsyncSession, player_id: str, currency: str, acting: str | None) -> str:
        """The concessionaire of a player entering a tournament. An entry made acting for a concessionaire
        opens the player's account in `currency` if it has none (registering the player with it if the wallet
        does not know the player): the caller makes one call, not two, and an entrant with no money gets the
        refusal of an empty account, `insufficient_funds` (the opening goes with the refused transaction). A
        player of another concessionaire is refused (`forbidden_concessionaire`) either way."""
        if acting is not None and await self.directory.find(session, AccountKey.player(player_id, currency)) is None:
            await self.open_player_account(session, player_id, acting, currency)
            return acting  # the player is acting's: opening its account refused it otherwise
        return await self.directory.concessionaire_of(session, player_id)

    # -- the concessionaire's cashier ---------------------------------------------------------------------------
    async def cash(self, session: AsyncSession, request: CashRequest) -> PostedOperation:
        """A deposit or withdrawal the concessionaire reports, posted acting for it: only its own players' money.
        A deposit past a limit the player set is refused (`deposit_limit_exceeded`, service/deposit_limits.py)."""
        operation = request.operation()
        if request.kind is OperationKind.DEPOSIT:
            await self.deposit_limits.admit(session, request.player_id, request.currency, request.amount)
        return await self.ledger.post(session, operation, acting=request.concessionaire_id)

    async def cash_operations(self, session: AsyncSession, requests: Sequence[CashRequest]) -> list[Built]:
        """`cash` of each request for the group commit (service/group_commit.py): its operation, or its refusal; a
        deposit of a player with deposit limits is left to run alone (`admit` sums its window under the limits'
        lock, one deposit at a time)."""
        deposits = [(r.player_id, r.currency) for r in requests if r.kind is OperationKind.DEPOSIT]
        unlimited = await self.deposit_limits.unlimited(session, deposits)
        return [
            RUN_ALONE
            if r.kind is OperationKind.DEPOSIT and (r.player_id, r.currency) not in unlimited
            else built(r.operation)
            for r in requests
        ]

    async def fund(
        self,
        session: AsyncSession,
        concessionaire_id: str,
        target: AccountKind,
        currency: str,
        amount: int,
        reference: str | None,
    ) -> PostedOperation:
        operation = ops.funding(concessionaire_id, target, currency, amount, reference)
        return await self.ledger.post(session, operation, acting=concessionaire_id)

    # -- tournaments --------------------------------------------------------------------------------------------
    async def paid_entry(self, session: AsyncSession, request: EntryRequest) -> PostedOperation:
        concessionaire = await self._entrant(session, request.player_id, request.currency, request.acting)
        return await self.ledger.post(session, request.operation(concessionaire), acting=request.acting)

    async def entry_operations(self, session: AsyncSession, requests: Sequence[EntryRequest]) -> list[Built]:
        """`paid_entry` of each request for the group commit: its operation, or its refusal; an entry that would
        open the player's account (`_entrant`) is left to run alone. The players' accounts and concessionaires
        are read for all the requests at once."""
        opening = {AccountKey.player(r.player_id, r.currency) for r in requests if r.acting is not None}
        opened = await self.directory.find_many(session, opening)
        owners = await self.directory.concessionaires_of(session, {r.player_id for r in requests})
        answers: list[Built] = []
        for r in requests:
            if r.acting is not None and AccountKey.player(r.player_id, r.currency) not in opened:
                answers.append(RUN_ALONE)
            elif r.player_id not in owners:
                answers.append(unknown_player(r.player_id))
            else:
                answers.append(built(functools.partial(r.operation, owners[r.player_id])))
        return answers

    async def satellite_entry(
        self,
        session: AsyncSession,
        *,
        tournament_id: str,
        satellite_id: str,
        player_id: str,
        currency: str,
        prize_part: int,
        fee: int,
        acting: str | None,
    ) -> PostedOperation:
        operation = ops.satellite_entry(
            player_id=player_id,
            concessionaire_id=await self._entrant(session, player_id, currency, acting),
            tournament_id=tournament_id,
            satellite_id=satellite_id,
            currency=currency,
            prize_part=prize_part,
            fee=fee,
        )
        return await self.ledger.post(session, operation, acting=acting)

    async def sponsored_entry(
        self,
        session: AsyncSession,
        *,
        tournament_id: str,
        player_id: str,
        concessionaire_id: str,
        currency: str,
        amount: int,
        fee: int,
        acting: str | None,
    ) -> PostedOperation:
        await self.directory.concessionaire_of(session, player_id)  # the entry is for a known player
        operation = ops.sponsored_entry(
            player_id=player_id,
            concessionaire_id=concessionaire_id,
            tournament_id=tournament_id,
            currency=currency,
            amount=amount,
            fee=fee,
        )
        return await self.ledger.post(session, operation, acting=acting)

    async def overlay(
        self,
        session: AsyncSession,
        kind: OperationKind,
        *,
        tournament_id: str,
        concessionaire_id: str,
        currency: str,
        amount: int,
        acting: str | None,
    ) -> PostedOperation:
        operation = ops.overlay(
            kind, concessionaire_id=concessionaire_id, tournament_id=tournament_id, currency=currency, amount=amount
        )
        return await self.ledger.post(session, operation, acting=acting)

    async def prize_payouts(
        self, session: AsyncSession, *, tournament_id: str, currency: str, payouts: Sequence[tuple[str, int]]
    ) -> PostedOperation:
        operation = ops.prize_payouts(tournament_id=tournament_id, currency=currency, payouts=payouts)
        return await self.ledger.post(session, operation)

    async def bonus_prizes(
        self,
        session: AsyncSession,
        *,
        tournament_id: str,
        concessionaire_id: str,
        currency: str,
        prizes: Sequence[tuple[str, int]],
        acting: str | None,
    ) -> PostedOperation:
        """P-9.3: (player, amount) per winner; a winner's bonus account is opened with its first prize."""
        operation = ops.bonus_prizes(
            concessionaire_id=concessionaire_id, tournament_id=tournament_id, currency=currency, prizes=prizes
        )
        return await self.ledger.post(session, operation, acting=acting)

    async def refunds(
        self, session: AsyncSession, *, tournament_id: str, currency: str, items: Sequence[tuple[str, int, int]]
    ) -> PostedOperation:
        """(player, prize part, fee) per refunded entry; the fee comes back from the player's concessionaire."""
        refunds = [
            EntryRefund(player, await self.directory.concessionaire_of(session, player), prize_part, fee)
            for player, prize_part, fee in items
        ]
        operation = ops.refunds(tournament_id=tournament_id, currency=currency, items=refunds)
        return await self.ledger.post(session, operation)

    async def jackpot_award(
        self, session: AsyncSession, *, concessionaire_id: str, player_id: str, currency: str, amount: int
    ) -> PostedOperation:
        operation = ops.jackpot_award(
            concessionaire_id=concessionaire_id, player_id=player_id, currency=currency, amount=amount
        )
        return await self.ledger.post(session, operation)

    async def tax_accrual(
        self, session: AsyncSession, *, concessionaire_id: str, tournament_id: str, currency: str, amount: int
    ) -> PostedOperation:
        operation = ops.tax_accrual(
            concessionaire_id=concessionaire_id, tournament_id=tournament_id, currency=currency, amount=amount
        )
        return await self.ledger.post(session, operation)

    # -- totalizator --------------------------------------------------------------------------------------------
    async def stake(
        self,
        session: AsyncSession,
        *,
        draw_id: str,
        player_id: str,
        currency: str,
        amount: int,
        coupon_id: str | None,
        acting: str | None,
    ) -> PostedOperation:
        operation = ops.stake(
            player_id=player_id, draw_id=draw_id, currency=currency, amount=amount, coupon_id=coupon_id
        )
        return await self.ledger.post(session, operation, acting=acting)

    async def draw_payments(
        self,
        session: AsyncSession,
        kind: OperationKind,
        *,
        draw_id: str,
        currency: str,
        payments: Sequence[tuple[str, int]],
    ) -> PostedOperation:
        operation = ops.draw_payments(kind, draw_id=draw_id, currency=currency, payments=payments)
        return await self.ledger.post(session, operation)

    async def organizer_transfer(
        self, session: AsyncSession, kind: OperationKind, *, draw_id: str, currency: str, amount: int
    ) -> PostedOperation:
        operation = ops.organizer_transfer(kind, draw_id=draw_id, currency=currency, amount=amount)
        return await self.ledger.post(session, operation)

    # -- corrections --------------------------------------------------------------------------------------------
    async def reverse(
        self, session: AsyncSession, operation_id: int, reason: str, acting: str | None
    ) -> PostedOperation:
        """Post the mirror image of an operation. Locks the original, so two reversals cannot both pass."""
        original = await ledger_rows.load_operation(session, operation_id, lock=True)
        if acting is not None:
            check_acting(acting, [a for t in original.transfers for a in (t.debit, t.credit)])
        if original.operation.kind is OperationKind.REVERSAL:
            raise NotReversible(
                "A reversal is not reversed: post the original operation again.", operation_id=operation_id
            )
        existing = await ledger_rows.reversed_by(session, operation_id)
        if existing is not None:
            raise AlreadyReversed(
                f"Operation {operation_id} was already reversed by {existing}.",
                operation_id=operation_id,
                reversed_by=existing,
            )
        return await self.ledger.post(session, ops.reversal(original.operation, operation_id, reason))
