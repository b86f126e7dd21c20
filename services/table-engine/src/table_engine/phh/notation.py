"""The PHH hand-history format (phh.readthedocs.io, spec 0.0.2): TOML fields and the action notation.

A PHH file is TOML. ``loads`` reads one, checking the required fields of hold'em variants; ``dumps`` writes
one (required fields first, as the style guide asks). Player-indexed arrays are in PHH player order: from the
small blind (the first player left of the button) round to the button; heads-up, the arrays of forced bets are
applied reversed (the button posts the small blind).

Variant codes: ``NT`` no-limit and ``FT`` fixed-limit Texas hold'em are standard. PHH has no code for
pot-limit Texas hold'em; we write and read ``PT`` for it.
"""

from __future__ import annotations

import json
import math
import tomllib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import date, time
from typing import NamedTuple

HOLDEM_VARIANTS = ("NT", "FT", "PT")
FIXED_LIMIT_VARIANTS = ("FT",)

# Field order of the spec: required fields first, then the optional ones.
REQUIRED_FIELDS = (
    "variant",
    "ante_trimming_status",
    "antes",
    "blinds_or_straddles",
    "bring_in",
    "small_bet",
    "big_bet",
    "min_bet",
    "starting_stacks",
    "actions",
)
OPTIONAL_FIELDS = (
    "author",
    "event",
    "url",
    "venue",
    "address",
    "city",
    "region",
    "postal_code",
    "country",
    "time",
    "time_zone",
    "time_zone_abbreviation",
    "day",
    "month",
    "year",
    "hand",
    "level",
    "seats",
    "seat_count",
    "table",
    "players",
    "finishing_stacks",
    "winnings",
    "currency",
    "currency_symbol",
    "time_limit",
    "time_banks",
)

Number = int | float


class PhhError(ValueError):
    """A PHH text that does not follow the format (or that this engine cannot play)."""


@dataclass(frozen=True)
class PhhHand:
    """A hold'em hand history. ``fields`` keeps every other field (optional or user-defined) as read."""

    variant: str
    antes: tuple[Number, ...]
    blinds_or_straddles: tuple[Number, ...]
    starting_stacks: tuple[Number, ...]
    actions: tuple[str, ...]
    min_bet: Number | None = None
    small_bet: Number | None = None
    big_bet: Number | None = None
    ante_trimming_status: bool = False
    fields: Mapping[str, object] = field(default_factory=dict)

    @property
    def player_count(self) -> int:
        return len(self.starting_stacks)

    @property
    def finishing_stacks(self) -> tuple[Number, ...] | None:
        value = self.fields.get("finishing_stacks")
        return tuple(value) if isinstance(value, list | tuple) else None


class PhhAction(NamedTuple):
    """One parsed action. ``actor``: None for the dealer, else the player index (0-based); ``dealee``: the
    player index a hole-dealing action ("d dh pN cards") deals to."""

    actor: int | None
    verb: str
    argument: str | None
    dealee: int | None = None


def parse_action(text: str) -> PhhAction | None:
    """``"p3 cbr 225 # comment"`` -> PhhAction(2, "cbr", "225"); None for a no-op (blank or commentary)."""
    words = text.split("#", 1)[0].split()
    if not words:
        return None
    actor_text, *rest = words
    actor = None if actor_text == "d" else _player_index(actor_text, text)
    if not rest:
        raise PhhError(f"action without a verb: {text!r}")
    verb, *arguments = rest
    if actor is None and verb == "dh":
        if len(arguments) != 2:
            raise PhhError(f"hole dealing needs a player and cards: {text!r}")
        return PhhAction(None, "dh", arguments[1], _player_index(arguments[0], text))
    if len(arguments) > 1:
        raise PhhError(f"too many arguments in action {text!r}")
    return PhhAction(actor, verb, arguments[0] if arguments else None)


def _player_index(word: str, text: str) -> int:
    if word.startswith("p") and word[1:].isdigit() and int(word[1:]) >= 1:
        return int(word[1:]) - 1
    raise PhhError(f"unknown player {word!r} in action {text!r}")


def loads(text: str) -> PhhHand:
    """Parse one PHH hand of a hold'em variant."""
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:
        raise PhhError(f"not valid TOML: {error}") from None
    variant = data.get("variant")
    if variant not in HOLDEM_VARIANTS:
        raise PhhError(f"variant {variant!r} is not Texas hold'em (NT, FT or PT)")
    needed = ["antes", "blinds_or_straddles", "starting_stacks", "actions"]
    needed += ["small_bet", "big_bet"] if variant in FIXED_LIMIT_VARIANTS else ["min_bet"]
    missing = [name for name in needed if name not in data]
    if missing:
        raise PhhError(f"missing required fields: {', '.join(missing)}")
    count = len(data["starting_stacks"])
    for name in ("antes", "blinds_or_straddles"):
        if len(data[name]) != count:
            raise PhhError(f"{name} has {len(data[name])} entries for {count} players")
    known = {"variant", "antes", "blinds_or_straddles", "starting_stacks", "actions", "min_bet", "small_bet"}
    known |= {"big_bet", "ante_trimming_status"}
    return PhhHand(
        variant=variant,
        antes=tuple(data["antes"]),
        blinds_or_straddles=tuple(data["blinds_or_straddles"]),
        starting_stacks=tuple(data["starting_stacks"]),
        actions=tuple(data["actions"]),
        min_bet=data.get("min_bet"),
        small_bet=data.get("small_bet"),
        big_bet=data.get("big_bet"),
        ante_trimming_status=bool(data.get("ante_trimming_status", False)),
        fields={name: value for name, value in data.items() if name not in known},
    )


def dumps(hand: PhhHand) -> str:
    """The TOML text of ``hand``: required fields first, then optional ones, then user-defined ones."""
    values: dict[str, object] = {
        "variant": hand.variant,
        "ante_trimming_status": hand.ante_trimming_status,
        "antes": list(hand.antes),
        "blinds_or_straddles": list(hand.blinds_or_straddles),
        "small_bet": hand.small_bet,
        "big_bet": hand.big_bet,
        "min_bet": hand.min_bet,
        "starting_stacks": list(hand.starting_stacks),
        "actions": list(hand.actions),
    }
    lines = [f"{name} = {_toml_value(values[name])}" for name in REQUIRED_FIELDS if values.get(name) is not None]
    ordered = [name for name in OPTIONAL_FIELDS if name in hand.fields]
    ordered += sorted(name for name in hand.fields if name not in OPTIONAL_FIELDS)
    lines += [f"{name} = {_toml_value(hand.fields[name])}" for name in ordered]
    return "\n".join(lines) + "\n"


def _toml_value(value: object) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        return ("inf" if value > 0 else "-inf") if math.isinf(value) else repr(value)
    if isinstance(value, str):
        return json.dumps(value)  # a JSON string is a valid TOML basic string
    if isinstance(value, date | time):
        return value.isoformat()  # TOML local date, time or date-time
    if isinstance(value, Sequence):
        return "[" + ", ".join(_toml_value(item) for item in value) + "]"
    raise PhhError(f"cannot write {value!r} in a PHH file")
