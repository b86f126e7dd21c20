"""Offences and how they come to light (P-12.1, P-12.2)."""

from dataclasses import dataclass
from datetime import datetime
from enum import IntEnum, StrEnum

from ._time import require_aware
from .errors import InvalidReport


class OffenceKind(StrEnum):
    OFFENSIVE_LANGUAGE = "offensive_language"  # insults, threats (P-12.1)
    PRIVATE_INFORMATION = "private_information"  # revealing cards held or folded (P-12.1, P-1.4)
    OTHER = "other"  # any other behaviour that disturbs the game or the players


class Gravity(IntEnum):
    """How serious the staff judge an offence (P-12.2)."""

    MINOR = 1
    SERIOUS = 2
    VERY_SERIOUS = 3


class Detection(StrEnum):
    """P-12.2: an offence is found by other players' reports or by the concessionaire's checks."""

    PLAYER_REPORT = "player_report"
    OPERATOR_CHECK = "operator_check"


@dataclass(frozen=True, slots=True)
class Report:
    """One report of a suspected offence. `offence` is what the reporter claims; the staff decide."""

    report_id: str
    offender_id: str
    offence: OffenceKind
    detection: Detection
    filed_at: datetime
    reporter_id: str | None = None  # the reporting player, for a PLAYER_REPORT only
    tournament_id: str | None = None
    description: str = ""

    def __post_init__(self) -> None:
        require_aware(self.filed_at, "filed_at")
        if (self.detection is Detection.PLAYER_REPORT) != (self.reporter_id is not None):
            raise InvalidReport("a player report names its reporter; an operator check does not")
        if self.reporter_id == self.offender_id:
            raise InvalidReport("a player cannot report themselves")
