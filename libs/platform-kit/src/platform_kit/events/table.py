"""The table engine's contract: commands it takes (from the director and the gateway) and events it publishes.

Public events use routing keys `table.…`; an event only one player may see (their hole cards) is a
`PrivateTableEvent`, published under `private.table.…` so that a consumer of public events never receives it, and
shown by the gateway to its recipient alone (P-1.4). Cards are two-character strings: rank `23456789TJQKA` + suit
`cdhs` (e.g. "As", "Td"). Chips are integers.
"""

from __future__ import annotations

import zlib
from collections.abc import Mapping
from enum import StrEnum
from typing import Any, ClassVar, Literal

from pydantic import BaseModel, ConfigDict, Field

from platform_kit.events.base import Command, Event


class BettingStructure(StrEnum):
    """The one definition of a table's betting structure: tournament definitions and `OpenTable` both use it."""

    NO_LIMIT = "no_limit"
    POT_LIMIT = "pot_limit"
    FIXED_LIMIT = "fixed_limit"


ActionKind = Literal["fold", "check", "call", "bet", "raise"]

CONTRIBUTION_MAX_LENGTH = 64
CONTRIBUTION_PATTERN = r"^[\x21-\x7e]+$"
"""A player's contribution to the next deck (docs/fair-deal.md): 1 to 64 printable ASCII characters, no space.
Bounded so that a hand's revealed contributions stay small; the clients send 64 hex digits (32 random bytes)."""

_NEXT_COMMITMENT = (
    "SHA-256 (hex) of the secret seed of the table's next hand, drawn and published before any contribution to "
    "that hand is accepted (docs/fair-deal.md). None from an engine that predates players' contributions."
)


def shard_for(table_id: str, shards: int) -> int:
    """The table-engine shard that owns a table: stable across processes and restarts."""
    return zlib.crc32(table_id.encode()) % max(shards, 1)


def shard_queue(shard: int) -> str:
    return f"table-engine.shard-{shard}"


def command_routing_key(command: Command, table_id: str, shards: int) -> str:
    return f"{shard_queue(shard_for(table_id, shards))}.{command.TYPE}"


class _Model(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class SeatedPlayer(_Model):
    seat: int = Field(ge=1, le=10)
    player_id: str
    stack: int = Field(ge=0)


class Level(_Model):
    small_blind: int = Field(gt=0)
    big_blind: int = Field(gt=0)
    ante: int = Field(0, ge=0)
    big_blind_ante: bool = False


class DisconnectPolicy(_Model):
    """The table's announced policy (P-13.2, P-13.3)."""

    mode: Literal["fold", "time_bank", "all_in_protection"] = "time_bank"
    extra_seconds: int = Field(30, ge=0)
    max_protections_per_tournament: int = Field(2, ge=0)


# ---- commands ------------------------------------------------------------------------------------------------
class OpenTable(Command):
    TYPE = "table.open"
    table_id: str
    tournament_id: str | None = None
    max_seats: int = Field(ge=2, le=10)
    betting_structure: BettingStructure
    seats: list[SeatedPlayer]
    button_seat: int | None = Field(None, description="None: the engine draws the first button at random.")
    action_seconds: int = Field(20, ge=1)
    time_bank_seconds: int = Field(60, ge=0)
    disconnect_policy: DisconnectPolicy = DisconnectPolicy()


class SeatPlayer(Command):
    """Between hands: a new or moved player takes a seat (P-6.2, P-6.3)."""

    TYPE = "table.seat"
    table_id: str
    player: SeatedPlayer


class UnseatPlayer(Command):
    TYPE = "table.unseat"
    table_id: str
    player_id: str
    reason: Literal["moved", "busted", "disqualified", "left", "table_broken"]


class AddChips(Command):
    """Rebuy or add-on chips, added between hands (P-4)."""

    TYPE = "table.add_chips"
    table_id: str
    player_id: str
    amount: int = Field(gt=0)
    reason: Literal["rebuy", "addon"]


class StartHand(Command):
    """Deal the next hand at this level (the director's clock decides the level, P-7.1)."""

    TYPE = "table.next_hand"
    table_id: str
    hand_no: int = Field(ge=1)
    level: Level


class PauseTable(Command):
    """A break: the hand in progress plays out, no hand starts until the next StartHand, which resumes."""

    TYPE = "table.pause"
    table_id: str
    reason: str


class CloseTable(Command):
    """A hand in progress is voided first (HandVoided, every stack back to its start-of-hand value, P-10)."""

    TYPE = "table.close"
    table_id: str
    reason: str


class PlayerAct(Command):
    """A player's decision, from the gateway. `amount` is the total the player's bet becomes ("raise to")."""

    TYPE = "table.act"
    table_id: str
    hand_id: str
    player_id: str
    action: ActionKind
    amount: int | None = Field(None, ge=0)


class PlayerConnection(Command):
    """The gateway saw a player's table connection drop or come back (P-13.2)."""

    TYPE = "table.connection"
    table_id: str
    player_id: str
    connected: bool


class PostChat(Command):
    TYPE = "table.chat"
    table_id: str
    player_id: str
    text: str = Field(min_length=1, max_length=300)


class ContributeToDeck(Command):
    """From the gateway: a seated player's random value for the table's next deck (docs/fair-deal.md). It goes
    into the next hand dealt after it arrives, whose seed the table had already committed to; a player's later
    value for the same hand replaces the earlier one."""

    TYPE = "table.contribute"
    table_id: str
    player_id: str
    value: str = Field(min_length=1, max_length=CONTRIBUTION_MAX_LENGTH, pattern=CONTRIBUTION_PATTERN)


class SetSittingOut(Command):
    """From the gateway: the player asks to sit out (blinds and antes still posted, hands folded or checked at
    once) or to come back in; a player put out by a timeout or a disconnection comes back this way too."""

    TYPE = "table.sit_out"
    table_id: str
    player_id: str
    sitting_out: bool


# ---- events ---------------------------------------------------------------------------------------------------
class TableOpened(Event):
    TYPE = "table.table.opened"
    table_id: str
    tournament_id: str | None
    shard: int
    max_seats: int
    seats: list[SeatedPlayer]
    next_deck_commitment: str | None = Field(None, description=_NEXT_COMMITMENT)


class TableClosed(Event):
    TYPE = "table.table.closed"
    table_id: str
    tournament_id: str | None
    reason: str


class PlayerSeated(Event):
    TYPE = "table.player.seated"
    table_id: str
    tournament_id: str | None
    player: SeatedPlayer


class PlayerUnseated(Event):
    TYPE = "table.player.unseated"
    table_id: str
    tournament_id: str | None
    player_id: str
    reason: str


class HandStarted(Event):
    TYPE = "table.hand.started"
    table_id: str
    tournament_id: str | None
    hand_id: str
    hand_no: int
    button_seat: int
    level: Level
    seats: list[SeatedPlayer] = Field(description="Every player dealt in, with the stack at the start of the hand.")
    deck_commitment: str | None = Field(
        None,
        description="SHA-256 (hex) of the hand's secret seed, published before the first card; the seed, revealed "
        "in the hand's history once it has ended, derives the deck (docs/fair-deal.md). None from an engine that "
        "predates provably fair deals.",
    )
    next_deck_commitment: str | None = Field(None, description=_NEXT_COMMITMENT)


class PrivateTableEvent(Event):
    """A table event only one player may see (P-1.4). Subclassing this class is the one declaration of it: the
    table engine's outbox publishes it under `private.<type>` (`Event.routing_key`), which no public binding such
    as `table.#` matches, and the gateway's fan-out shows it on the table's channel to `recipient` alone."""

    PRIVATE: ClassVar[bool] = True
    table_id: str
    player_id: str = Field(description="The one player who may see it.")

    @staticmethod
    def recipient(payload: Mapping[str, Any]) -> str:
        """Whom a message of this kind is for, read from its payload as it travels: the gateway routes payloads
        without rebuilding the model."""
        return str(payload["player_id"])


class HoleCardsDealt(PrivateTableEvent):
    """Private: published with the routing key `private.table.hole_cards.dealt`; reaches its owner alone."""

    TYPE = "table.hole_cards.dealt"
    hand_id: str
    seat: int
    cards: list[str]


class ActionRequested(Event):
    TYPE = "table.action.requested"
    table_id: str
    hand_id: str
    seat: int
    player_id: str
    deadline: str = Field(description="ISO-8601 instant after which the time bank (then the default) applies.")
    time_bank_seconds: int
    can_check: bool
    call_amount: int = Field(description="Chips to add to call (0 when checking is free).")
    min_raise_to: int | None = Field(description="None when the player may not bet or raise.")
    max_raise_to: int | None


class ActionTaken(Event):
    TYPE = "table.action.taken"
    table_id: str
    hand_id: str
    seat: int
    player_id: str
    action: Literal["post_small_blind", "post_big_blind", "post_ante", "fold", "check", "call", "bet", "raise"]
    amount: int = Field(description="Chips put in by this action.")
    raise_to: int | None = None
    all_in: bool = False
    stack_after: int
    pot_after: int
    automatic: Literal["timeout", "sitting_out", "disconnected"] | None = None


class ActionRejected(PrivateTableEvent):
    """Private to the acting player (routing key `private.table.action.rejected`): a refused action, chat line
    or sit-out request. Nothing changed at the table."""

    TYPE = "table.action.rejected"
    hand_id: str | None = Field(description="The hand the refused action named; None for chat and sit-out requests.")
    code: str
    message: str


class ContributionAccepted(PrivateTableEvent):
    """Private to the contributing player (routing key `private.table.contribution.accepted`): their value will
    be in the deck of the next hand dealt, the one whose seed has this commitment."""

    TYPE = "table.contribution.accepted"
    deck_commitment: str = Field(description="SHA-256 (hex) of the seed of the hand the value goes into.")


class BetReturned(Event):
    """The uncalled part of a bet goes back to its owner at the end of a betting round."""

    TYPE = "table.bet.returned"
    table_id: str
    hand_id: str
    seat: int
    player_id: str
    amount: int
    stack_after: int
    pot_after: int


class StreetDealt(Event):
    TYPE = "table.street.dealt"
    table_id: str
    hand_id: str
    street: Literal["flop", "turn", "river"]
    board: list[str]


class ShownHand(_Model):
    seat: int
    player_id: str
    cards: list[str]
    category: str = Field(description="e.g. four_of_a_kind, full_house (the best five of seven).")


class ShowdownRevealed(Event):
    TYPE = "table.showdown.revealed"
    table_id: str
    hand_id: str
    shown: list[ShownHand]
    mucked_seats: list[int]


class PotResult(_Model):
    amount: int
    eligible_seats: list[int]
    winner_seats: list[int]
    shares: list[int] = Field(description="Chips won by each winner, in the order of winner_seats.")


class SeatResult(_Model):
    seat: int
    player_id: str
    start_stack: int
    end_stack: int


class HandCompleted(Event):
    """What the director needs to rank busts (P-2.2, P-2.3) and plan tables; the jackpot check uses `shown`."""

    TYPE = "table.hand.completed"
    table_id: str
    tournament_id: str | None
    hand_id: str
    hand_no: int
    button_seat: int
    board: list[str]
    results: list[SeatResult]
    pots: list[PotResult]
    shown: list[ShownHand]
    busted_player_ids: list[str]


class HandVoided(Event):
    """A hand interrupted by a crash: every stack is back at its start-of-hand value (P-10)."""

    TYPE = "table.hand.voided"
    table_id: str
    tournament_id: str | None
    hand_id: str
    hand_no: int
    restored: list[SeatedPlayer]


class ChatPosted(Event):
    TYPE = "table.chat.posted"
    table_id: str
    player_id: str
    text: str


class SittingOutChanged(Event):
    """A player sits out (asked to, timed out, or disconnected) or comes back in (asked to, or reconnected)."""

    TYPE = "table.sitting_out.changed"
    table_id: str
    player_id: str
    seat: int
    sitting_out: bool
    reason: Literal["requested", "timeout", "disconnected", "reconnected"]


class CommandRejected(Event):
    """A director's command the table refused (e.g. a hand while one is in progress); nothing changed."""

    TYPE = "table.command.rejected"
    table_id: str
    command: str = Field(description="The refused command's type, e.g. `table.next_hand`.")
    code: str
    message: str


class PlayerProtectionApplied(Event):
    """Disconnect protection acted for a player (P-13.2): folded, checked, extra time, or all-in protection."""

    TYPE = "table.protection.applied"
    table_id: str
    hand_id: str | None
    player_id: str
    outcome: Literal["folded", "checked", "time_extended", "all_in_protected"]
