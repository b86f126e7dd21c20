"""Days and instants in query parameters: typed, bounded and checked together, so that a bad one is a 422
`validation_failed` naming it, never a value the owning service chokes on.

An instant carries its UTC offset (`2026-03-01T12:00:00Z`, `…+01:00`): without one it would mean a different
instant in every time zone. Days and instants lie within the years 2000 to 2099: the platform holds nothing
earlier, and a later one is a typo (a day centuries away would also have the rating service carry a rating
over that many days). A period's `since` is not after its `until`.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, date, datetime
from typing import Annotated

from fastapi import Depends, Query
from fastapi.exceptions import RequestValidationError
from pydantic import AfterValidator, AwareDatetime
from pydantic_core import PydanticCustomError

FIRST_DAY, LAST_DAY = date(2000, 1, 1), date(2099, 12, 31)
DAY_RANGE = f"from {FIRST_DAY.isoformat()} to {LAST_DAY.isoformat()}"


def _day_in_range(day: date) -> date:
    if not FIRST_DAY <= day <= LAST_DAY:
        raise PydanticCustomError("out_of_range", "the day lies {range}", {"range": DAY_RANGE})
    return day


def _instant_in_range(instant: datetime) -> datetime:
    _day_in_range(instant.astimezone(UTC).date())
    return instant


Day = Annotated[date, AfterValidator(_day_in_range)]
Instant = Annotated[AwareDatetime, AfterValidator(_instant_in_range)]


@dataclass(frozen=True, slots=True)
class Period:
    """From `since` (included) to `until` (excluded); either end may be open."""

    since: datetime | None
    until: datetime | None


async def _period(
    since: Annotated[
        Instant | None, Query(description=f"At or after this instant, with its UTC offset ({DAY_RANGE}).")
    ] = None,
    until: Annotated[
        Instant | None, Query(description=f"Before this instant, with its UTC offset ({DAY_RANGE}).")
    ] = None,
) -> Period:
    if since is not None and until is not None and since > until:
        error = {"type": "since_after_until", "loc": ("query", "since"), "msg": "`since` is after `until`"}
        raise RequestValidationError([{**error, "input": since.isoformat()}])
    return Period(since, until)


TimePeriod = Annotated[Period, Depends(_period)]
