"""Provably fair decks: a hand's deck follows from a secret server seed and public contributions (P-1.3).

The scheme (docs/fair-deal.md has it for players and regulators):

- The table draws a fresh 32-byte ``seed`` for each hand from its cryptographically secure generator and,
  before it takes any contribution to that hand, publishes ``commitment(seed)``: the SHA-256 of the seed, in
  hex. The hash reveals nothing of the deck; the seed itself is revealed only once the hand has ended.
- ``contributions`` are strings no one controls alone: a public value (the previous hand's revealed seed, or
  the table id for the table's first hand) and the seated players' random values, sent after the table
  committed to the seed (the table draws each seed one hand ahead: domain/machine.py). They are
  encoded canonically: sorted by their UTF-8 bytes, each as a 4-byte big-endian length then its bytes.
- A keyed generator: block ``i`` (``i`` = 0, 1, ...) is ``HMAC-SHA256(key=seed, msg=i as 8 bytes big-endian
  + encoded contributions)``; the blocks are read as consecutive 4-byte big-endian unsigned draws.
- Unbiased draws below ``n``: a draw ``u`` is rejected when ``u >= 2**32 - 2**32 % n``, else it gives
  ``u % n``. Fisher–Yates over the card ints 0..51 in order: for ``i`` from 51 down to 1, swap ``deck[i]`` and
  ``deck[draw below i + 1]``.

Anyone holding the seed and the contributions recomputes the deck with ``derive_deck`` and checks it against the
commitment and the cards dealt with ``verify``. Pure: no I/O, no randomness of its own.
"""

from __future__ import annotations

import hashlib
import hmac
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass

from table_engine.domain.cards import DECK_SIZE, FULL_DECK, card_text

SEED_BYTES = 32
_DRAW_BYTES = 4
_DRAW_SPAN = 1 << (8 * _DRAW_BYTES)


def commitment(seed: bytes) -> str:
    """What the table publishes before the first card: SHA-256 of the seed, 64 lowercase hex digits."""
    return hashlib.sha256(seed).hexdigest()


def encode_contributions(contributions: Sequence[str]) -> bytes:
    """The canonical encoding: sorted by UTF-8 bytes, each a 4-byte big-endian length then the bytes. Order
    of arrival does not matter, and no two different lists encode alike."""
    encoded = sorted(contribution.encode("utf-8") for contribution in contributions)
    return b"".join(len(item).to_bytes(4, "big") + item for item in encoded)


def _draws(seed: bytes, contributions: Sequence[str]) -> Iterator[int]:
    """The keyed generator: HMAC-SHA256 blocks over a counter and the contributions, as 32-bit draws."""
    message = encode_contributions(contributions)
    counter = 0
    while True:
        block = hmac.new(seed, counter.to_bytes(8, "big") + message, hashlib.sha256).digest()
        for start in range(0, len(block), _DRAW_BYTES):
            yield int.from_bytes(block[start : start + _DRAW_BYTES], "big")
        counter += 1


def draw_below(draws: Iterator[int], n: int) -> int:
    """A uniform int in 0..n-1 by rejection sampling: draws in the incomplete last stretch are discarded."""
    limit = _DRAW_SPAN - _DRAW_SPAN % n
    for draw in draws:
        if draw < limit:
            return draw % n
    raise AssertionError("the generator never ends")


def derive_deck(seed: bytes, contributions: Sequence[str]) -> list[int]:
    """The 52-card deck (card ints, dealing order) that ``seed`` and ``contributions`` determine."""
    if len(seed) != SEED_BYTES:
        raise ValueError(f"a seed has {SEED_BYTES} bytes, not {len(seed)}")
    draws = _draws(seed, contributions)
    deck = list(FULL_DECK)
    for i in range(DECK_SIZE - 1, 0, -1):
        j = draw_below(draws, i + 1)
        deck[i], deck[j] = deck[j], deck[i]
    return deck


@dataclass(frozen=True)
class DeckSource:
    """What a hand's deck derives from: the secret seed (revealed after the hand) and the contributions."""

    seed: bytes
    contributions: tuple[str, ...]

    @property
    def commitment(self) -> str:
        return commitment(self.seed)

    def deck(self) -> list[int]:
        return derive_deck(self.seed, self.contributions)


def verify(
    seed_hex: str, contributions: Sequence[str], published: str, dealt: Mapping[str, Mapping[int, int]]
) -> list[str]:
    """Every problem found, none when the deal is fair: the revealed seed (hex) must hash to the ``published``
    commitment, and the deck it derives with ``contributions`` must hold, at each deck position (0-based,
    dealing order, burns included), the card each source says was there. ``dealt``: source (a description,
    e.g. "the recorded deck") -> position -> card."""
    try:
        seed = bytes.fromhex(seed_hex)
    except ValueError:
        return [f"the seed is not hex: {seed_hex!r}"]
    if len(seed) != SEED_BYTES:
        return [f"the seed has {len(seed)} bytes, not {SEED_BYTES}"]
    problems = []
    if commitment(seed) != published.lower():
        problems.append(f"the seed hashes to {commitment(seed)}, not to the published commitment {published}")
    deck = derive_deck(seed, contributions)
    for source, cards in dealt.items():
        for position, card in sorted(cards.items()):
            if not 0 <= position < DECK_SIZE:
                problems.append(f"{source}: deck position {position} does not exist")
            elif deck[position] != card:
                problems.append(
                    f"{source}, deck position {position}: {card_text(card)}, "
                    f"where the seed gives {card_text(deck[position])}"
                )
    return problems
