"""The draw file `draw-<id>.json` (T-8.2): the draw as announced, later with results and void flags.

    {"draw_id": "2010-1", "close_at": "2010-06-10T23:10:00Z", "jackpot_usd": "50000.00",
     "fx_to_usd": {"USD": "1", "EUR": "1.0843"}, "min_stakes": {"USD": "0.10", "EUR": "0.10"},
     "matches": [{"no": 1, "home": "...", "away": "...", "kickoff": "2010-06-11T18:00:00Z",
                  "options": ["0:0", "1:0", ..., "other away"], "result": "2:1" | null, "void": false}, ...]}

Times are UTC ISO 8601; amounts are decimal strings; `jackpot_usd` is the jackpot played (carried plus
any organizer top-up, T-4.4 — the file does not tell them apart); `void` is whether the match is void,
by decision or because it kicked off before closing (T-5.1).
"""

from __future__ import annotations

import json
from datetime import UTC, datetime
from typing import Any, TextIO

from totalizator.domain import CurrencyTerms, Draw, InvalidDraw, Match
from totalizator.domain.currency import format_minor, minor_unit_exponent
from totalizator.files.decimals import exact_decimal, parse_decimal, parse_minor
from totalizator.files.errors import PublishedFileError


def draw_file_name(draw_id: str) -> str:
    return f"draw-{draw_id}.json"


def write_draw(draw: Draw, out: TextIO) -> None:
    json.dump(draw_to_json(draw), out, ensure_ascii=False, indent=2)
    out.write("\n")


def read_draw(source: TextIO) -> Draw:
    try:
        data = json.load(source)
    except json.JSONDecodeError as exc:
        raise PublishedFileError(f"draw file: not JSON: {exc}") from None
    return draw_from_json(data)


def draw_to_json(draw: Draw) -> dict[str, Any]:
    return {
        "draw_id": draw.draw_id,
        "close_at": _time_text(draw.close_at),
        "jackpot_usd": exact_decimal(draw.jackpot_usd, min_places=2),
        "fx_to_usd": {terms.currency: exact_decimal(terms.usd_rate) for terms in draw.currencies},
        "min_stakes": {terms.currency: format_minor(terms.min_stake, terms.exponent) for terms in draw.currencies},
        "matches": [
            {
                "no": match.no,
                "home": match.home,
                "away": match.away,
                "kickoff": _time_text(match.kickoff),
                "options": list(match.options),
                "result": match.result,
                "void": match.is_void(draw.close_at),
            }
            for match in draw.matches
        ],
    }


def draw_from_json(data: Any) -> Draw:
    try:
        return _draw_from_json(data)
    except (KeyError, TypeError, ValueError, InvalidDraw) as exc:
        detail = exc.message if isinstance(exc, InvalidDraw) else f"{type(exc).__name__}: {exc}"
        raise PublishedFileError(f"draw file: {detail}") from None


def _draw_from_json(data: dict[str, Any]) -> Draw:
    close_at = _parse_time(data["close_at"])
    fx = data["fx_to_usd"]
    currencies = []
    for currency, min_stake in _text_map(data["min_stakes"]).items():
        rate = "1" if currency == "USD" and currency not in fx else fx[currency]
        currencies.append(
            CurrencyTerms(
                currency=currency,
                min_stake=parse_minor(min_stake, minor_unit_exponent(currency)),
                usd_rate=parse_decimal(_text(rate)),
            )
        )
    if unknown := set(fx) - {terms.currency for terms in currencies}:
        raise ValueError(f"rates for currencies without a minimum stake: {sorted(unknown)}")
    return Draw(
        draw_id=_text(data["draw_id"]),
        close_at=close_at,
        matches=tuple(_match_from_json(item, close_at) for item in data["matches"]),
        currencies=tuple(currencies),
        jackpot_carried_usd=parse_decimal(_text(data["jackpot_usd"])),
    )


def _match_from_json(data: dict[str, Any], close_at: datetime) -> Match:
    kickoff = _parse_time(data["kickoff"])
    void = data["void"]
    if not isinstance(void, bool):
        raise TypeError(f"match {data['no']}: void must be true or false")
    if kickoff < close_at and not void:
        raise ValueError(f"match {data['no']} kicked off before bet closing, so it is void (T-5.1)")
    result = data["result"]
    return Match(
        no=data["no"],
        home=_text(data["home"]),
        away=_text(data["away"]),
        kickoff=kickoff,
        options=tuple(_text(option) for option in data["options"]),
        result=None if result is None else _text(result),
        # A void flag implied by the kick-off is not a decision: keep the two apart as the model does.
        declared_void=void and not kickoff < close_at,
    )


def _text(value: Any) -> str:
    if not isinstance(value, str):
        raise TypeError(f"expected a string, got {value!r}")
    return value


def _text_map(value: Any) -> dict[str, str]:
    if not isinstance(value, dict):
        raise TypeError(f"expected an object, got {value!r}")
    return {_text(key): _text(item) for key, item in value.items()}


def _time_text(moment: datetime) -> str:
    return moment.astimezone(UTC).isoformat().replace("+00:00", "Z")


def _parse_time(text: Any) -> datetime:
    moment = datetime.fromisoformat(_text(text))
    if moment.tzinfo is None:
        raise ValueError(f"time {text!r} lacks a UTC offset")
    return moment
