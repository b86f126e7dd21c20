"""Errors the rating domain raises. Each carries a stable `code` the service maps to an API problem."""


class RatingDomainError(ValueError):
    """A request the rules refuse; `code` is stable and machine-readable."""

    code = "rating.invalid"


class InvalidTournamentResult(RatingDomainError):
    code = "rating.invalid_tournament_result"


class ConflictingAward(RatingDomainError):
    """The same tournament was reported twice for a player with different day or points."""

    code = "rating.conflicting_award"


class AwardOutOfOrder(RatingDomainError):
    """An award older than the summary's last award day: rebuild the summary from the award history."""

    code = "rating.award_out_of_order"


class SummaryAfterDay(RatingDomainError):
    """A summary anchored after the day asked about cannot answer for that day: rebuild it `as_of` the day."""

    code = "rating.summary_after_day"


class InvalidAccessPolicy(RatingDomainError):
    code = "rating.invalid_access_policy"


class InvalidReport(RatingDomainError):
    code = "rating.invalid_report"


class InvalidSanction(RatingDomainError):
    code = "rating.invalid_sanction"


class InvalidAppeal(RatingDomainError):
    code = "rating.invalid_appeal"
