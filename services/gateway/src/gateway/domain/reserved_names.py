"""Nicknames a person may not take. P-11.5 makes the nickname a player's whole public identity, so none may pass
for the platform's staff (`Admin`, `Supporto`) or for one of the house bots (`Bot_…`, which only the house signs
up: `bot_names`).

The rule works on a skeleton of the nickname, so that look-alikes count as the word they imitate: case folded,
digits and letters read as the letters they pass for (`Adm1n`, `5upp0rt`, `Adrnin`), everything but letters
dropped (`A.d.m.i.n`, `ADMIN_`). A nickname is reserved when its skeleton starts with a staff word, or the
skeleton of a later word in it does: words begin after a separator or at a capital after a small letter or a
digit (`Mario_Admin`, `TheSupport`). "Starts with", not "contains": `Badminton` and `Madmin` stay free, while
`AdminMario` and `Supporter` are taken for staff — a false alarm costs a person another nickname, a missed
impostor can cost a player their money.
"""

from __future__ import annotations

import re
from enum import StrEnum

from gateway.domain.bot_names import BOT_PREFIX


class Reserved(StrEnum):
    STAFF = "staff"
    HOUSE_BOT = "house_bot"


# English and Italian: the network's players read both. Prefixes cover their longer forms (`operator` covers
# `operatore`, `support` covers `supporto`, `admin` covers `administrator`, `amministra` covers `amministratore`).
STAFF_WORDS = (
    "admin",
    "amministra",
    "staff",
    "operator",
    "support",
    "assistenza",
    "helpdesk",
    "moderator",
    "system",
    "sistema",
    "root",
    "dealer",
    "croupier",
    "banco",
    "cashier",
    "cassiere",
    "official",
    "ufficiale",
)
# Read as the letter they pass for. `l` and `1` both pass for `i` (and `I` is `i` once case-folded), so the
# three compare equal; the staff words get the same treatment.
_LOOK_ALIKES = str.maketrans({"0": "o", "1": "i", "l": "i", "3": "e", "4": "a", "5": "s", "7": "t", "8": "b"})
_NOT_A_LETTER = re.compile(r"[^a-z]")
_SEPARATORS = "_.-"


def skeleton(text: str) -> str:
    """The letters a reader sees in `text`: `Adm1n` and `A.D.M.I.N` are both `admin`."""
    folded = text.casefold().replace("rn", "m").translate(_LOOK_ALIKES)
    return _NOT_A_LETTER.sub("", folded)


_STAFF_SKELETONS = tuple(skeleton(word) for word in STAFF_WORDS)
_BOT_SKELETON = skeleton(BOT_PREFIX)


def reserved(nickname: str) -> Reserved | None:
    """Why `nickname` is reserved, or None when a person may take it."""
    if _looks_like_a_bot(nickname):
        return Reserved.HOUSE_BOT
    if any(skeleton(word).startswith(_STAFF_SKELETONS) for word in _words_onwards(nickname)):
        return Reserved.STAFF
    return None


def _words_onwards(nickname: str) -> list[str]:
    """The nickname from each of its words to its end: `Mario_Admin` gives `Mario_Admin` and `Admin`."""
    starts = [0] + [i for i in range(1, len(nickname)) if _word_starts_at(nickname, i)]
    return [nickname[i:] for i in starts]


def _word_starts_at(nickname: str, i: int) -> bool:
    before, here = nickname[i - 1], nickname[i]
    if before in _SEPARATORS:
        return here not in _SEPARATORS
    return here.isupper() and (before.islower() or before.isdigit())


def _looks_like_a_bot(nickname: str) -> bool:
    """`Bot`, `BOT_x`, `B0t-x`, `BotX`, `Bot7`: the house bots' word as a word of its own at the start.
    `Botticelli` and `Bots` are other words that merely begin alike."""
    head, rest = nickname[:3], nickname[3:]
    if skeleton(head) != _BOT_SKELETON:
        return False
    if not rest:
        return True
    after = rest[0]
    return not after.isalpha() or (after.isupper() and head[-1].islower())
