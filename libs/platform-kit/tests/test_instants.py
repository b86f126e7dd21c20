"""`as_utc`: whatever form an instant arrives in, the services compare and store it aware, in UTC."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta, timezone

from platform_kit.instants import as_utc


def test_an_instant_in_another_offset_is_the_same_instant_in_utc() -> None:
    rome_evening = datetime(2025, 5, 1, 20, 0, tzinfo=timezone(timedelta(hours=2)))
    moment = as_utc(rome_evening)
    assert moment == rome_evening
    assert moment.tzinfo is UTC and moment.hour == 18


def test_a_naive_datetime_is_read_as_utc_wall_clock() -> None:
    moment = as_utc(datetime(2025, 5, 1, 18, 0))
    assert moment == datetime(2025, 5, 1, 18, 0, tzinfo=UTC) and moment.tzinfo is UTC


def test_iso_text_without_an_offset_is_utc() -> None:
    assert as_utc(datetime.fromisoformat("2025-05-01T18:00:00")) == as_utc(
        datetime.fromisoformat("2025-05-01T20:00:00+02:00")
    )
