"""Bodies of the routes the gateway relays to the other services, and the examples of their answers.

The owning service validates what it receives: the gateway's models cover what the gateway itself adds or must
check (who the player is, the birth date, an action's shape), and otherwise describe the request for the
OpenAPI document. Amounts are integers of minor units (cents), never floats.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from platform_kit.events.table import CONTRIBUTION_MAX_LENGTH, CONTRIBUTION_PATTERN, ActionKind
from platform_kit.events.tournament import RegistrationEntry
from pydantic import BaseModel, ConfigDict, Field

MAX_AMOUNT = 10**15
Amount = Annotated[int, Field(strict=True, gt=0, le=MAX_AMOUNT, description="Integer minor units (cents), > 0.")]
CurrencyCode = Annotated[str, Field(pattern=r"^[A-Z]{3}$", description="ISO 4217 code.", examples=["EUR"])]
Reference = Annotated[str | None, Field(max_length=200, description="Your own reference for the movement.")]


def _examples(*examples: dict[str, Any]) -> ConfigDict:
    return ConfigDict(extra="forbid", json_schema_extra={"examples": list(examples)})


def answers(
    example: Any, *, status: int = 200, description: str = "The owning service's answer"
) -> dict[int | str, dict[str, Any]]:
    """The `responses=` of a relayed route: its success answer with an example, which must be an answer the
    owning service can give (a test checks it against the service's contract). Problems are added for every
    route by `document_access`."""
    return {status: {"description": description, "content": {"application/json": {"example": example}}}}


def dict_body_examples(summary: str, value: dict[str, Any]) -> dict[str, Any]:
    """`openapi_examples` of a body relayed as it is to the service that defines it."""
    return {"example": {"summary": summary, "value": value}}


# -- tournaments ----------------------------------------------------------------------------------------------
class Registration(BaseModel):
    model_config = _examples(
        {"entry": "buy_in"}, {"entry": "ticket", "ticket_code": "T-7H2Q"}, {"entry": "satellite"}, {"entry": "freeroll"}
    )
    entry: RegistrationEntry = Field(
        "buy_in",
        description="Pay the buy-in, use a ticket, take a seat won in one of this tournament's satellites (P-3.4), "
        "or take a freeroll's free entry (P-9.1).",
    )
    ticket_code: str | None = Field(None, max_length=64)
    player_id: str | None = Field(
        None,
        max_length=64,
        description="Partners, operators and administrators: the player to register. Players register themselves.",
    )


class Cancellation(BaseModel):
    model_config = _examples({"reason": "Server maintenance"})
    reason: str = Field(min_length=3, max_length=500)


class Pause(BaseModel):
    model_config = _examples({"reason": "Database failover"})
    reason: str = Field(min_length=3, max_length=500, description="The technical problem, as players are told.")


class LobbyEntryRequest(BaseModel):
    """An entry of the lobby's schedule (issue 17); the director checks `body` as the tournament it opens."""

    model_config = _examples(
        {
            "key": "evening-turbo",
            "every_minutes": 120,
            "body": {
                "template": "scheduled_mtt",
                "name": "Evening Turbo",
                "buy_in": {"prize_part_cents": 900, "fee_cents": 100},
            },
        }
    )
    key: str = Field(pattern=r"^[a-z0-9-]{1,24}$", description="Names the entry and the tournaments it opens.")
    body: dict[str, Any] = Field(description="A tournament's creation body: {template, name, buy_in, ...}.")
    every_minutes: int | None = Field(
        None,
        ge=5,
        le=1_440,
        description="A scheduled tournament every so many minutes from 00:00 UTC; absent: a sit'n'go.",
    )


# -- tables ---------------------------------------------------------------------------------------------------
class TableAction(BaseModel):
    model_config = _examples(
        {"hand_id": "h-7f3a", "action": "raise", "amount": 240}, {"hand_id": "h-7f3a", "action": "fold"}
    )
    hand_id: str = Field(min_length=1, max_length=64, description="The hand the action is for (from the stream).")
    action: ActionKind
    amount: int | None = Field(
        None,
        strict=True,
        ge=0,
        le=MAX_AMOUNT,
        description='Bets and raises: the total the bet becomes ("raise to"), between `min_raise_to` and '
        "`max_raise_to` of the `table.action.requested` message.",
    )


class ChatLine(BaseModel):
    model_config = _examples({"text": "nice hand!"})
    text: str = Field(min_length=1, max_length=300)


class SittingOut(BaseModel):
    model_config = _examples({"sitting_out": False})
    sitting_out: bool = Field(description="True: sit out (blinds still posted); false: come back in.")


class DeckContribution(BaseModel):
    model_config = _examples({"value": "9f2c4e7a01b3d5f6a8c0e2d4b6f8a0c2e4d6f8a0b2c4d6e8f0a2b4c6d8e0f2a4"})
    value: str = Field(
        min_length=1,
        max_length=CONTRIBUTION_MAX_LENGTH,
        pattern=CONTRIBUTION_PATTERN,
        description="A random value of yours (1 to 64 printable ASCII characters, no space; the web client sends "
        "32 random bytes in hex). It goes into the deck of the table's next hand, whose seed's commitment is "
        "already published (`next_deck_commitment`), and is revealed with the seed after that hand "
        "(docs/fair-deal.md).",
    )


class Accepted(BaseModel):
    """A command on its way to the table: its outcome arrives on the table's stream."""

    model_config = ConfigDict(json_schema_extra={"examples": [{"accepted": True, "table_id": "t-42"}]})
    accepted: bool = True
    table_id: str


# -- totalizator ----------------------------------------------------------------------------------------------
class CouponPlacement(BaseModel):
    """The gateway adds the player and their birth date from its identity store (T-1.4): a client cannot."""

    model_config = _examples(
        {
            "currency": "EUR",
            "amount": 40,
            "picks": [["1:0", "2:1"], ["0:0", "1:1"], ["2:0"], ["1:1"], ["0:1"], ["other home"], ["3:1"], ["0:2"]],
        }
    )
    currency: CurrencyCode
    amount: Amount = Field(description="The whole coupon's amount: at least the minimum stake times its bets (T-2.4).")
    picks: list[list[Annotated[str, Field(max_length=20)]]] = Field(
        min_length=8, max_length=8, description="For each of the 8 matches in order, the results picked."
    )


# -- wallet ---------------------------------------------------------------------------------------------------
class AccountOpening(BaseModel):
    model_config = _examples({"currency": "EUR"})
    currency: CurrencyCode


class CashMovement(BaseModel):
    model_config = _examples({"currency": "EUR", "amount": 5000, "reference": "till-3/2026-03-01/0042"})
    currency: CurrencyCode
    amount: Amount
    reference: Reference = None


class Funding(BaseModel):
    model_config = _examples({"account_kind": "sponsorship", "currency": "EUR", "amount": 100000})
    account_kind: Literal["sponsorship", "jackpot_fund"]
    currency: CurrencyCode
    amount: Amount
    reference: Reference = None


# -- examples of answers --------------------------------------------------------------------------------------
TOURNAMENT_LISTING = [
    {
        "tournament_id": "snd-9f2c",
        "name": "Heads-up Turbo",
        "kind": "sit_and_go",
        "status": "registering",
        "currency": "EUR",
        "buy_in_prize_cents": 400,
        "buy_in_fee_cents": 100,
        "registered": 1,
        "min_players": 2,
        "max_players": 2,
        "starts_at": None,
        "betting_structure": "no_limit",
        "table_mode": "normal",
        "guarantee_cents": 0,
        "freeroll": False,
    }
]
REGISTERED = {"tournament_id": "snd-9f2c", "player_id": "3f2a…", "entry": "buy_in", "registered": 2}
UNREGISTERED = {"tournament_id": "snd-9f2c", "player_id": "3f2a…", "refunded_cents": 500}
TABLE_VIEW = {
    "table_id": "t-42",
    "tournament_id": "snd-9f2c",
    "status": "playing",
    "max_seats": 2,
    "betting_structure": "no_limit",
    "level": {"small_blind": 10, "big_blind": 20, "ante": 0, "big_blind_ante": False},
    "button_seat": 1,
    "hand": {
        "hand_id": "h-7f3a",
        "hand_no": 3,
        "street": "flop",
        "board": ["As", "Td", "7h"],
        "pot": 80,
        "button_seat": 1,
        "small_blind_seat": 1,
        "big_blind_seat": 2,
        "to_act": 2,
        "deadline": "2026-03-01T12:00:20Z",
        "expires_at": "2026-03-01T12:01:20Z",
        "all_in_protected": [],
    },
    "seats": [
        {
            "seat": 1,
            "player_id": "3f2a…",
            "stack": 1460,
            "bet": 0,
            "in_hand": True,
            "sitting_out": False,
            "connected": True,
        }
    ],
}
DRAW = {
    "draw_id": "2030-23",
    "status": "open",
    "close_at": "2030-06-08T13:00:00Z",
    "jackpot_usd": "1250.00",
    "jackpot_carried_usd": "1250.00",
    "jackpot_topup_usd": "0",
    "currencies": [{"currency": "EUR", "min_stake": "0.10", "min_stake_minor": 10, "usd_rate": "1.0843"}],
    "matches": [
        {
            "no": 1,
            "competition": "Serie A",
            "home": "Roma",
            "away": "Lazio",
            "kickoff": "2030-06-08T13:00:00Z",
            "actual_kickoff": None,
            "options": ["0:0", "1:0", "…", "other home"],
            "void": False,
            "declared_void": False,
            "score": None,
            "result": None,
        }
    ],
    "void_matches": [],
    "playable": True,
    "announced_at": "2030-06-01T09:00:00Z",
    "final": None,
    "next_jackpot_usd": None,
    "finished_at": None,
}
STATISTICS = {
    "draw_id": "2030-23",
    "status": "open",
    "final": False,
    "as_of": "2030-06-01T10:00:00Z",
    "coupons": 12,
    "bets": 96,
    "pool_usd": "10.408800",
    "matches": [
        {"no": 1, "home": "Roma", "away": "Lazio", "options": [{"option": "1:0", "bets": 40, "amount_usd": "4.3372"}]}
    ],
}
COUPON = {
    "coupon_id": "C-8K2M4Q",
    "draw_id": "2030-23",
    "player_id": "3f2a…",
    "status": "accepted",
    "currency": "EUR",
    "amount": 40,
    "amount_text": "0.40",
    "bets": 4,
    "picks": [["1:0", "2:1"], ["0:0", "1:1"], ["2:0"], ["1:1"], ["0:1"], ["other home"], ["3:1"], ["0:2"]],
    "accepted_at": "2030-06-01T10:00:00Z",
    "wallet_operation_id": 311,
}
ACCOUNTS = {
    "player_id": "3f2a…",
    "concessionaire_id": "9c1d…",
    "accounts": [
        {
            "id": 17,
            "kind": "player",
            "owner": "3f2a…",
            "currency": "EUR",
            "minor_units": 2,
            "concessionaire_id": "9c1d…",
            "balance": 9460,
            "held": 0,
            "available": 9460,
        }
    ],
}
STATEMENT = {
    "items": [
        {
            "transfer_id": 802,
            "account": {"kind": "player", "owner": "3f2a…", "currency": "EUR"},
            "counterparty": {"kind": "draw_pool", "owner": "2030-23", "currency": "EUR"},
            "amount": -40,
            "purpose": "stake",
            "operation_id": 311,
            "operation_kind": "stake",
            "tournament_id": None,
            "draw_id": "2030-23",
            "reference": "C-8K2M4Q",
            "created_at": "2030-06-01T10:00:00Z",
        }
    ],
    "next_cursor": None,
}
OPERATION = {
    "operation_id": 41,
    "kind": "deposit",
    "currency": "EUR",
    "tournament_id": None,
    "draw_id": None,
    "player_id": "3f2a…",
    "concessionaire_id": "9c1d…",
    "reference": "till-3/2026-03-01/0042",
    "tax_base": None,
    "reverses_operation_id": None,
    "created_at": "2026-03-01T12:00:00Z",
    "transfers": [
        {
            "debit": {"id": 2, "kind": "cash", "owner": "9c1d…"},
            "credit": {"id": 17, "kind": "player", "owner": "3f2a…"},
            "amount": 5000,
            "purpose": "deposit",
        }
    ],
}
LEADERBOARD = {
    "day": "2026-02-28",
    "page": 1,
    "size": 50,
    "active_count": 1,
    "entries": [
        {
            "rank": 1,
            "nickname": "MarioRossi",
            "rating": "12.500000",
            "tier": "GRUPPO_UNO",
            "tier_label": "GRUPPO UNO (Group One)",
        }
    ],
}
SANCTION = {
    "sanction_id": "s-51",
    "player_id": "3f2a…",
    "kind": "temporary_chat_ban",
    "context": "during_tournament",
    "offence": "offensive_language",
    "gravity": "minor",
    "prior_sanctions": 0,
    "decided_at": "2026-03-01T12:00:00Z",
    "decided_by": "7b0e…",
    "report_ids": ["r-12"],
    "room_id": "9c1d…",
    "tournament_id": "snd-9f2c",
    "duration": "P1D",
    "ends_at": "2026-03-02T12:00:00Z",
    "ban_scope": None,
    "ranking_penalty_positions": 0,
    "entries_forfeit": False,
    "reason": "Insults in the chat",
    "appeal": None,
    "lifted_at": None,
    "lifted_reason": None,
}
