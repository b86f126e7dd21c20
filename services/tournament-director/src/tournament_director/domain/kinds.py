"""The closed vocabularies of a tournament definition (P-1.1, P-3, P-4, P-6, P-9)."""

from __future__ import annotations

from enum import StrEnum


class TournamentKind(StrEnum):
    #: Fixed number of seats (2–120), starts when full (P-3.1).
    SIT_AND_GO = "sit_and_go"
    #: Starts at a set time with 10–3,000 registered players (P-3.2).
    SCHEDULED = "scheduled"


class BettingStructure(StrEnum):
    NO_LIMIT = "no_limit"
    POT_LIMIT = "pot_limit"
    FIXED_LIMIT = "fixed_limit"


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
