"""The closed vocabularies of a tournament definition (P-1.1, P-3, P-4, P-6, P-9).

A tournament's kind and a table's betting structure are the event contracts' (`platform_kit.events`), defined
there once: the director's definitions take them from there, as its events do.
"""

from __future__ import annotations

from enum import StrEnum

from platform_kit.events.table import BettingStructure
from platform_kit.events.tournament import TournamentKind

__all__ = [
    "BettingStructure",
    "PrizeForm",
    "RebuyEligibility",
    "SatellitePrizeMode",
    "TableMode",
    "TournamentKind",
]


class TableMode(StrEnum):
    #: Tables merge and balance so the fewest are used (P-6.1–P-6.3).
    STANDARD = "standard"
    #: Phases without merges, each table played down to its preset winners (P-6.4).
    SHOOTOUT = "shootout"


class PrizeForm(StrEnum):
    """What a freeroll's prizes are paid in (P-9.2, P-9.3)."""

    #: Withdrawable cash: the concessionaire must buy each player a sponsored entry (P-9.2).
    CASH = "cash"
    BONUS = "bonus"


class SatellitePrizeMode(StrEnum):
    """The three forms of a satellite's prize (P-3.4)."""

    AUTOMATIC_REGISTRATION = "automatic_registration"
    #: The right to register for free to an otherwise closed target.
    FREE_REGISTRATION_RIGHT = "free_registration_right"
    #: A ticket (code) that registers its holder for free.
    TICKET = "ticket"


class RebuyEligibility(StrEnum):
    """When a player counts as "out of chips" for a rebuy (P-4.2; see `rebuy_addon`)."""

    #: Busted: no chips at the end of a hand (the seed's wording).
    OUT_OF_CHIPS = "out_of_chips"
    #: The common variant: at or below the starting stack, between hands.
    AT_OR_BELOW_STARTING_STACK = "at_or_below_starting_stack"
