"""What callers ask the director to do, and what it answers: one frozen dataclass per use case, run through the
handler table (`handlers.HANDLERS`). A command names who asks (`principal`) when the use case checks it, and the
caller's Idempotency-Key when the use case's money steps are bound to it.

Two kinds: a `Command` is a caller's request (the API, the lobby): `handlers.handle` runs it, and its handler
opens the units of work it needs. A `UnitCommand` is work its caller runs inside a unit of work it holds
(`handlers.handle_in`): a message consumed from the bus, in the inbox's transaction (`adapters/consumed.py` maps
each contract to its command), or a clock duty, in a unit of its own (`service/clock.py`).

`Command[R]` says that its handler answers an R. The answers live here too, beside their commands, so that the
use case modules import this one and never each other for a type.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Generic, Literal, TypeVar

from platform_kit.events import rating as rating_bus
from platform_kit.events import table as table_bus
from platform_kit.events import tournament as events

from tournament_director.adapters.tournaments import TournamentRecord
from tournament_director.service.principals import Principal

R = TypeVar("R")
PurchaseKind = Literal["rebuy", "addon"]


class Command(Generic[R]):
    """A use case's request, answered with an R."""


class UnitCommand(Command[R]):
    """Work run inside its caller's unit of work, answered with an R."""


# -- answers ------------------------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Registered:
    tournament_id: str
    player_id: str
    entry: str
    registered: int


@dataclass(frozen=True)
class Purchased:
    tournament_id: str
    player_id: str
    kind: PurchaseKind
    chips: int
    price_cents: int


@dataclass(frozen=True)
class Cancelled:
    #: The refund rule applied: P-10.1 … P-10.9 while running, P-10 before the start, P-3.2 below the minimum.
    rule: str
    refunds: list[events.Refund]


@dataclass(frozen=True)
class CancelAnswer:
    reason: str | None
    #: None when the tournament was cancelled before this request (it answers as it stands).
    cancelled: Cancelled | None


# -- commands -----------------------------------------------------------------------------------------------------
@dataclass(frozen=True)
class CreateTournament(Command[tuple[TournamentRecord, bool]]):
    """Answers the tournament record and whether it is new (the same key gives back the one it created)."""

    principal: Principal
    body: dict[str, Any]
    client_key: str | None


@dataclass(frozen=True)
class RegisterPlayer(Command[Registered]):
    tournament_id: str
    player_id: str
    concessionaire_id: str
    #: How the player asks to enter (a freeroll registers for free whatever it says).
    entry: events.RegistrationEntry
    ticket_code: str | None = None
    client_key: str | None = None


@dataclass(frozen=True)
class Unregister(Command[int]):
    """Answers the cash refunded."""

    principal: Principal
    tournament_id: str
    player_id: str


@dataclass(frozen=True)
class Purchase(Command[Purchased]):
    principal: Principal
    tournament_id: str
    player_id: str
    kind: PurchaseKind
    client_key: str


@dataclass(frozen=True)
class StartNow(Command[None]):
    principal: Principal
    tournament_id: str


@dataclass(frozen=True)
class StopRecurring(Command[None]):
    principal: Principal
    tournament_id: str


@dataclass(frozen=True)
class Pause(Command[None]):
    principal: Principal
    tournament_id: str
    reason: str


@dataclass(frozen=True)
class Resume(Command[None]):
    principal: Principal
    tournament_id: str


@dataclass(frozen=True)
class Cancel(Command[CancelAnswer]):
    principal: Principal
    tournament_id: str
    reason: str


# -- messages consumed (adapters/consumed.py), each in the transaction the inbox records it in ----------------------
@dataclass(frozen=True)
class TakeHandResult(UnitCommand[None]):
    """A hand completed at one of the tournament's tables (`table.hand.completed`)."""

    tournament_id: str
    hand: table_bus.HandCompleted


@dataclass(frozen=True)
class DealVoidedHandAgain(UnitCommand[None]):
    """A crash voided a hand at one of the tournament's tables (`table.hand.voided`)."""

    tournament_id: str
    table_id: str
    hand_no: int


@dataclass(frozen=True)
class NoteRejectedCommand(UnitCommand[None]):
    """The table engine refused a command the director sent one of its tables (`table.command.rejected`)."""

    table_id: str
    command: str
    code: str
    message: str


@dataclass(frozen=True)
class ApplySanction(UnitCommand[None]):
    """The rating service sanctioned a player (`rating.sanction.decided`, P-12.3–P-12.5)."""

    sanction: rating_bus.SanctionDecided


@dataclass(frozen=True)
class WithdrawSelfExcluded(UnitCommand[None]):
    """A player excluded themself (`gateway.player.self_excluded`, issue 17)."""

    player_id: str


# -- clock duties (service/clock.py), each in a unit of work of its own -----------------------------------------------
@dataclass(frozen=True)
class OpenRegistration(UnitCommand[None]):
    """The tournament's `registration_opens_at` came."""

    tournament_id: str


@dataclass(frozen=True)
class StartScheduled(UnitCommand[None]):
    """The tournament's `starts_at` came (P-3.2)."""

    tournament_id: str


@dataclass(frozen=True)
class ChangeLevel(UnitCommand[None]):
    """The run's level or break changes now (P-7)."""

    tournament_id: str


@dataclass(frozen=True)
class DeclineLapsedOffer(UnitCommand[None]):
    """A rebuy offer was not answered in time (P-4.2)."""

    tournament_id: str
    player_id: str
