"""The wallet's commands that other services call, declared once: each one's route (POST, the path below,
answered `status`: 201 with the operation unless it says otherwise) and its body's schema, from which the wallet
makes its route (wallet/api/internal.py) and its clients (the tournament director, the totalizator, the gateway)
their requests.

A field or a path changed here changes the route and its callers together. Clients build a body with
`Model.model_construct(...)`: the type checker checks its fields, and its values are left for the wallet to judge
(a refusal is an answer the caller records, where a local ValidationError would be an error). Amounts are
integers of minor units (floats are refused).
"""

from __future__ import annotations

import string
from dataclasses import dataclass, field, replace
from enum import StrEnum
from typing import Annotated, Any, Generic, Literal, TypeVar
from urllib.parse import quote

from pydantic import BaseModel, ConfigDict, Field

from platform_kit.idempotency import MAX_SERVICE_KEY_LENGTH

MAX_AMOUNT = 10**15  # far above any real amount, far below 64-bit overflow when legs are summed

Amount = Annotated[int, Field(strict=True, gt=0, le=MAX_AMOUNT, description="Integer minor units, > 0.")]
AmountOrZero = Annotated[int, Field(strict=True, ge=0, le=MAX_AMOUNT, description="Integer minor units, ≥ 0.")]
CurrencyCode = Annotated[str, Field(pattern=r"^[A-Z]{3}$", description="ISO 4217 code", examples=["EUR"])]
Id = Annotated[str, Field(min_length=1, max_length=100)]
Reference = Annotated[str | None, Field(max_length=200, description="The caller's own reference.")]


class WalletBody(BaseModel):
    """A request body: unknown fields are refused."""

    model_config = ConfigDict(extra="forbid")


# The ledger's account kinds as callers name them: the wallet's own AccountKind (wallet.domain.accounts, which says
# what each may do) has these values, which a wallet test holds equal. No docstring: it would become the OpenAPI
# schema's description, and this schema is the one the wallet's contract has always had.
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


class OpenAccountIn(WalletBody):
    concessionaire_id: Id
    currency: CurrencyCode


class AccountRefIn(WalletBody):
    kind: AccountKind
    owner: Id


MAX_HOLD_TTL_SECONDS = 30 * 86400


class HoldIn(WalletBody):
    player_id: Id
    currency: CurrencyCode
    amount: Amount
    destination: AccountRefIn
    ttl_seconds: int | None = Field(None, strict=True, gt=0, le=MAX_HOLD_TTL_SECONDS)
    reference: Reference = None


class HoldPostIn(WalletBody):
    amount: Amount | None = Field(None, description="Default: the whole hold; the rest is released.")


class ReversalIn(WalletBody):
    reason: str = Field(min_length=1, max_length=200)


class EntryIn(WalletBody):
    """Buy-in, rebuy or add-on: price = prize_part + fee (P-8.1); `jackpot_contribution` is part of the fee
    (P-8.6)."""

    kind: Literal["buy_in", "rebuy", "add_on"]
    player_id: Id
    currency: CurrencyCode
    prize_part: AmountOrZero
    fee: AmountOrZero
    jackpot_contribution: AmountOrZero = 0


class SatelliteEntryIn(WalletBody):
    player_id: Id
    satellite_tournament_id: Id
    currency: CurrencyCode
    prize_part: AmountOrZero
    fee: AmountOrZero


class SponsoredEntryIn(WalletBody):
    """P-9.2: `amount` is the entry's prize part, paid into the escrow; `fee` stays with the concessionaire (it
    would pay it to itself) but is taxed with it: the whole entry is the tax base (P-8.7)."""

    player_id: Id
    concessionaire_id: Id
    currency: CurrencyCode
    amount: Amount
    fee: AmountOrZero = 0


OverlayCause = Literal["guarantee", "cancellation"]


class OverlayIn(WalletBody):
    cause: OverlayCause
    concessionaire_id: Id
    currency: CurrencyCode
    amount: Amount


class PlayerAmount(WalletBody):
    player_id: Id
    amount: AmountOrZero


class PayoutsIn(WalletBody):
    currency: CurrencyCode
    payouts: list[PlayerAmount] = Field(min_length=1, max_length=5000)


class PlayerPrizeIn(WalletBody):
    player_id: Id
    amount: Amount


class BonusPrizesIn(WalletBody):
    """P-9.3: a bonus freeroll's prizes by final ranking, paid by the concessionaire that offers them (P-9.1)."""

    concessionaire_id: Id
    currency: CurrencyCode
    prizes: list[PlayerPrizeIn] = Field(min_length=1, max_length=5000, description="One per player.")


class EntryRefundIn(WalletBody):
    player_id: Id
    prize_part: AmountOrZero
    fee: AmountOrZero


class RefundsIn(WalletBody):
    currency: CurrencyCode
    refunds: list[EntryRefundIn] = Field(min_length=1, max_length=5000)


class TaxAccrualIn(WalletBody):
    concessionaire_id: Id
    currency: CurrencyCode
    amount: Amount


class JackpotAwardIn(WalletBody):
    player_id: Id
    currency: CurrencyCode
    amount: Amount


class StakeIn(WalletBody):
    player_id: Id
    currency: CurrencyCode
    amount: Amount
    coupon_id: Reference = None


class KeyedStakeIn(StakeIn):
    """One stake of a batch, under its own idempotency key: the key the same stake carries when sent alone, with
    which it is the same request (either way it posts once, and a retry either way gets its first answer)."""

    key: Annotated[
        str,
        Field(
            min_length=1, max_length=MAX_SERVICE_KEY_LENGTH, pattern=r"^[\x20-\x7e]+$", description="Idempotency key"
        ),
    ]


MAX_STAKES_PER_BATCH = 500


class StakeBatchIn(WalletBody):
    stakes: list[KeyedStakeIn] = Field(min_length=1, max_length=MAX_STAKES_PER_BATCH)


class StakeAnswerOut(BaseModel):
    """A stake's answer, as a single stake under its key is answered: `status` 201 and the operation as `body`,
    or the refusal's status and problem (insufficient_funds, unknown_account, idempotency_key_reused …)."""

    key: str
    status: int
    body: dict[str, Any]


class StakeBatchOut(BaseModel):
    answers: list[StakeAnswerOut] = Field(description="One per stake, in the request's order.")


class DrawPaymentsIn(WalletBody):
    currency: CurrencyCode
    payments: list[PlayerAmount] = Field(min_length=1, max_length=100_000)


class OrganizerTransferIn(WalletBody):
    kind: Literal["organizer_share", "organizer_top_up", "rounding_remainder", "jackpot_carry", "jackpot_release"]
    currency: CurrencyCode
    amount: Amount


#: The header of an internal call made for a concessionaire: the wallet touches nothing that is not that
#: concessionaire's (its `acting` concessionaire, wallet/api/context.py).
ACTING_HEADER = "X-Concessionaire-Id"


@dataclass(frozen=True)
class WalletRequest:
    """A call to the wallet as it is sent (and stored by a caller that must send it again after a crash): the
    headers are part of it, so a call made again carries the same ones."""

    path: str
    body: dict[str, Any]
    headers: dict[str, str] = field(default_factory=dict)

    def acting_for(self, concessionaire_id: str) -> WalletRequest:
        """The same call made for `concessionaire_id`: the wallet refuses it if it touches another one's money."""
        return replace(self, headers={**self.headers, ACTING_HEADER: concessionaire_id})


Body = TypeVar("Body", bound=WalletBody)


@dataclass(frozen=True)
class WalletOperation(Generic[Body]):
    name: str
    """The route's name (its OpenAPI operation id starts with it)."""
    path: str
    """With `{placeholders}` for the ids it names, e.g. `/internal/v1/tournaments/{tournament_id}/entries`."""
    body: type[Body] | None
    """None: the route takes no body (its request sends `{}`, the same request to the wallet)."""
    tag: str
    description: str | None
    status: int = 201
    """The status of a success."""

    @property
    def ids(self) -> tuple[str, ...]:
        """The path's placeholders, in order."""
        return tuple(field for _, field, _, _ in string.Formatter().parse(self.path) if field)

    def request(self, body: Body | None, **ids: str | int) -> WalletRequest:
        path = self.path.format(**{name: quote(str(value), safe="") for name, value in ids.items()})
        return WalletRequest(path, {} if body is None else body.model_dump(mode="json"))


_V1 = "/internal/v1"
_TOURNAMENT = f"{_V1}/tournaments/{{tournament_id}}"
_DRAW = f"{_V1}/draws/{{draw_id}}"
_HOLD = f"{_V1}/holds/{{hold_id}}"

# -- accounts, holds and reversals (their names are their routes' since before they were declared here, so their
# OpenAPI operation ids stay the same)
OPEN_ACCOUNT = WalletOperation(
    "open_player_account",
    f"{_V1}/players/{{player_id}}/accounts",
    OpenAccountIn,
    "accounts",
    "Register the player with its concessionaire (once, for good) and open its account in `currency`.",
)
CREATE_HOLD = WalletOperation(
    "create_hold",
    f"{_V1}/holds",
    HoldIn,
    "holds",
    """Reserve money on a player's account for a platform account (escrow, pool …); post or void it later.
    Unresolved at `ttl_seconds` (default: the service setting) it expires and is released.""",
)
POST_HOLD = WalletOperation(
    "post_hold",
    f"{_HOLD}/post",
    HoldPostIn,
    "holds",
    "Post the hold (no body: all of it) to its destination; the rest is released.",
    status=200,
)
VOID_HOLD: WalletOperation[WalletBody] = WalletOperation("void_hold", f"{_HOLD}/void", None, "holds", None, status=200)
REVERSAL = WalletOperation(
    "reverse",
    f"{_V1}/operations/{{operation_id}}/reversal",
    ReversalIn,
    "operations",
    "Correct an operation by posting its mirror image (the ledger is append-only). Once per operation.",
)

# -- tournaments
PAID_ENTRY = WalletOperation(
    "paid_entry",
    f"{_TOURNAMENT}/entries",
    EntryIn,
    "tournaments",
    """Buy-in, rebuy or add-on (P-8.1, P-4.4): prize part to the escrow, fee to the player's concessionaire's
    margin (less `jackpot_contribution`, to its jackpot fund, P-8.6); the price is recorded as tax base (P-8.7).""",
)
SATELLITE_ENTRY = WalletOperation(
    "satellite_entry",
    f"{_TOURNAMENT}/satellite-entries",
    SatelliteEntryIn,
    "tournaments",
    "P-3.4: a qualified player's entry, paid from the satellite's escrow, counted as a paid buy-in.",
)
SPONSORED_ENTRY = WalletOperation(
    "sponsored_entry",
    f"{_TOURNAMENT}/sponsored-entries",
    SponsoredEntryIn,
    "tournaments",
    """P-9.2: the concessionaire buys a freeroll player's entry from its sponsorship account; the whole entry
    (`amount` + `fee`) is recorded as tax base (P-8.7).""",
)
OVERLAY = WalletOperation(
    "overlay",
    f"{_TOURNAMENT}/overlays",
    OverlayIn,
    "tournaments",
    "P-8.3 guarantee overlay or P-10.11 cancellation overlay, from the concessionaire's sponsorship account.",
)
PRIZE_PAYOUTS = WalletOperation(
    "prize_payouts",
    f"{_TOURNAMENT}/payouts",
    PayoutsIn,
    "tournaments",
    "Prizes (P-8.4, P-8.5) from the escrow, all in one operation; refused if the escrow cannot cover them.",
)
BONUS_PRIZES = WalletOperation(
    "bonus_prizes",
    f"{_TOURNAMENT}/bonus-prizes",
    BonusPrizesIn,
    "tournaments",
    """P-9.3: a bonus freeroll's prizes (P-9.1: offered by the concessionaire), all in one operation, from its
    sponsorship account to each winner's bonus account (not withdrawable, no tax base); one prize per player.""",
)
REFUNDS = WalletOperation(
    "refunds",
    f"{_TOURNAMENT}/refunds",
    RefundsIn,
    "tournaments",
    "P-10.10: the full price back, prize part from the escrow and fee from the concessionaire's margin.",
)
TAX_ACCRUAL = WalletOperation(
    "tax_accrual",
    f"{_TOURNAMENT}/tax-accruals",
    TaxAccrualIn,
    "tournaments",
    "P-8.7: set the tax due on the tournament's base aside, from the concessionaire's margin.",
)
JACKPOT_AWARD = WalletOperation(
    "jackpot_award",
    "/internal/v1/jackpots/{concessionaire_id}/awards",
    JackpotAwardIn,
    "tournaments",
    "P-8.6: pay a progressive jackpot from the concessionaire's jackpot fund.",
)
# -- totalizator
STAKE = WalletOperation("stake", f"{_DRAW}/stakes", StakeIn, "totalizator", None)
STAKE_BATCH = WalletOperation(
    "stake_batch",
    f"{_DRAW}/stake-batches",
    StakeBatchIn,
    "totalizator",
    """Many stakes in one wallet transaction (a closing rush, issue 14), answered 200 with each stake's own answer
    (StakeBatchOut). Each is run once under its own key, exactly as if sent alone to `/stakes` with that
    Idempotency-Key: one stake's refusal is its answer alone and does not stop the others.""",
    status=200,
)
DRAW_PAYOUTS = WalletOperation(
    "draw_payouts",
    f"{_DRAW}/payouts",
    DrawPaymentsIn,
    "totalizator",
    "T-6: winning coupons' payouts from the draw's pool in their currency.",
)
DRAW_REFUNDS = WalletOperation(
    "draw_refunds", f"{_DRAW}/refunds", DrawPaymentsIn, "totalizator", "T-5.5: stakes back from the draw's pool."
)
ORGANIZER_TRANSFER = WalletOperation(
    "organizer_transfer",
    f"{_DRAW}/organizer-transfers",
    OrganizerTransferIn,
    "totalizator",
    """Between the draw's pool and the network: organizer share (T-1.1), top-up (T-6.2, T-4.4), rounding
    remainder (T-6.3), jackpot carry and release (T-3.2, T-4).""",
)
