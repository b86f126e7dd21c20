"""The results offered for a match (T-2.1): exact scores plus catch-alls, so every score maps to one option.

An option is either an exact score label "home:away" (e.g. "2:1") or one of three catch-alls covering the
scores not listed: "other home" (home win), "other draw", "other away" (away win). An option list is valid
when its labels are distinct and all three catch-alls are present — then every final score maps to exactly
one option, which is what makes a match settleable.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from totalizator.domain.errors import InvalidDraw

OTHER_HOME = "other home"
OTHER_DRAW = "other draw"
OTHER_AWAY = "other away"
CATCH_ALLS = (OTHER_HOME, OTHER_DRAW, OTHER_AWAY)

_SCORE_LABEL = re.compile(r"(0|[1-9][0-9]*):(0|[1-9][0-9]*)")


def score_label(home: int, away: int) -> str:
    return f"{home}:{away}"


def standard_options(max_goals: int = 4) -> tuple[str, ...]:
    """Every score up to max_goals–max_goals ("0:0".."4:4"), then the three catch-alls.

    Scores come in the order bettors scan them: by total goals, and within a total from home win to away
    win ("0:0", "1:0", "0:1", "2:0", "1:1", "0:2", ...).
    """
    scores = [
        score_label(home, total - home)
        for total in range(2 * max_goals + 1)
        for home in range(min(total, max_goals), max(0, total - max_goals) - 1, -1)
    ]
    return (*scores, *CATCH_ALLS)


def check_options(options: Sequence[str]) -> None:
    """Raise InvalidDraw unless every final score maps to exactly one of `options`."""
    if len(set(options)) != len(options):
        raise InvalidDraw(f"duplicate options in {list(options)}")
    for label in options:
        if label not in CATCH_ALLS and not _SCORE_LABEL.fullmatch(label):
            raise InvalidDraw(f"option {label!r} is neither a score 'home:away' nor one of {CATCH_ALLS}")
    missing = [label for label in CATCH_ALLS if label not in options]
    if missing:
        raise InvalidDraw(f"options lack {missing}: some scores would map to no option")


def option_for_score(options: Sequence[str], home: int, away: int) -> str:
    """The option of a valid option list that the final score home:away maps to."""
    if home < 0 or away < 0:
        raise ValueError(f"a score cannot be negative: {home}:{away}")
    label = score_label(home, away)
    if label in options:
        return label
    if home > away:
        return OTHER_HOME
    return OTHER_DRAW if home == away else OTHER_AWAY
