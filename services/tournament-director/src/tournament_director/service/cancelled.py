"""The refusal every registration route gives a cancelled tournament.

Without it a client would read `registration_closed`, `already_started` or `not_running`, which say "too late"
or "wait": a cancelled tournament will never take anyone again, and its registrations were refunded (P-10).
"""

from __future__ import annotations

from platform_kit.errors import Conflict

from tournament_director.adapters.tournaments import Status, TournamentRecord


def refuse_if_cancelled(tournament: TournamentRecord) -> None:
    if tournament.status is Status.CANCELLED:
        raise Conflict(
            "tournament_cancelled",
            "The tournament was cancelled; every registration in it was refunded (P-10).",
            tournament_id=tournament.tournament_id,
        )
