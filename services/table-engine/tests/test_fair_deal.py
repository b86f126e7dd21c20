"""Provably fair decks (P-1.3, docs/fair-deal.md): the deck follows from the committed seed and the
contributions, deterministically and uniformly, and any tampering with the seed, a contribution, the
commitment or a card is found by `verify`."""

from __future__ import annotations

import hashlib
import math
import random
import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from table_engine.domain.cards import FULL_DECK, cards_text, parse_cards
from table_engine.domain.fair_deal import (
    SEED_BYTES,
    DeckSource,
    commitment,
    derive_deck,
    draw_below,
    encode_contributions,
    verify,
)

DOC = Path(__file__).resolve().parents[3] / "docs" / "fair-deal.md"
SEED = bytes(range(32))
#: The test vector docs/fair-deal.md gives: seed 00 01 .. 1f, contributions ["table-1"].
VECTOR_COMMITMENT = "630dcd2966c4336691125448bbb25b4ff412a49c732db2c8abc1b8581bd710dd"
VECTOR_DECK = "8s2cKc2s4dTh8c9dQs5hAsJd5s6hAd6d3d9c6c2h8d3sKhQhTs7dQd9s6s5c8h3hKdJsAc7s4sAh4h9hJh7hJc2dTd4cTc7c3cKsQc5d"


def seeds(count: int) -> Iterator[bytes]:
    for n in range(count):
        yield hashlib.sha256(n.to_bytes(8, "big")).digest()


def all_of(deck: list[int]) -> dict[str, dict[int, int]]:
    return {"the recorded deck": dict(enumerate(deck))}


def test_p1_3_the_commitment_is_the_sha256_of_the_seed_and_nothing_of_the_contributions() -> None:
    assert commitment(SEED) == hashlib.sha256(SEED).hexdigest() == VECTOR_COMMITMENT
    assert DeckSource(SEED, ("a",)).commitment == DeckSource(SEED, ("b",)).commitment == VECTOR_COMMITMENT


def test_p1_3_the_deck_is_a_permutation_fixed_by_the_seed_and_the_contributions() -> None:
    deck = derive_deck(SEED, ["table-1"])
    assert cards_text(deck) == VECTOR_DECK
    assert sorted(deck) == list(FULL_DECK)
    assert derive_deck(SEED, ["table-1"]) == deck == DeckSource(SEED, ("table-1",)).deck()
    assert derive_deck(SEED, ["table-2"]) != deck
    assert derive_deck(bytes(32), ["table-1"]) != deck


def test_the_order_contributions_arrive_in_does_not_matter_but_their_boundaries_do() -> None:
    assert derive_deck(SEED, ["x", "y", "z"]) == derive_deck(SEED, ["z", "x", "y"])
    assert encode_contributions(["ab", "c"]) != encode_contributions(["a", "bc"])
    assert derive_deck(SEED, ["ab", "c"]) != derive_deck(SEED, ["a", "bc"])
    assert encode_contributions(["é"]) == b"\x00\x00\x00\x02" + "é".encode()


def test_a_seed_has_32_bytes() -> None:
    with pytest.raises(ValueError):
        derive_deck(bytes(SEED_BYTES - 1), [])


def test_draws_in_the_incomplete_last_stretch_are_rejected_so_none_is_biased() -> None:
    limit = 2**32 - 2**32 % 52
    assert draw_below(iter([limit, 2**32 - 1, 7]), 52) == 7
    assert draw_below(iter([limit - 1]), 52) == (limit - 1) % 52
    assert draw_below(iter([5]), 1) == 0


def test_p1_3_positions_of_cards_over_many_decks_are_uniform_chi_square() -> None:
    decks = 2600  # 50 expected per (position, card)
    counts = [[0] * 52 for _ in range(52)]
    for seed in seeds(decks):
        for position, card in enumerate(derive_deck(seed, ["table-chi"])):
            counts[position][card] += 1
    expected = decks / 52
    statistic = sum((observed - expected) ** 2 / expected for row in counts for observed in row)
    freedom = 52 * 51  # each position's row sums to `decks`
    spread = 5 * math.sqrt(2 * freedom)  # about 5 standard deviations: a fair shuffle fails once in millions
    assert freedom - spread < statistic < freedom + spread, statistic


def test_a_fair_deal_verifies() -> None:
    source = DeckSource(random.Random(1).randbytes(SEED_BYTES), ("table-9",))
    assert verify(source.seed.hex(), source.contributions, source.commitment, all_of(source.deck())) == []


def test_a_tampered_seed_contribution_commitment_or_card_is_found() -> None:
    source = DeckSource(random.Random(2).randbytes(SEED_BYTES), ("previous-seed",))
    seed, published, deck = source.seed.hex(), source.commitment, source.deck()

    other_seed = bytes([source.seed[0] ^ 1]) + source.seed[1:]
    problems = verify(other_seed.hex(), source.contributions, published, all_of(deck))
    assert any("published commitment" in problem for problem in problems)
    assert any("deck position" in problem for problem in problems)

    problems = verify(seed, ("another-value",), published, all_of(deck))
    assert problems and all("deck position" in problem for problem in problems)

    assert verify(seed, source.contributions, commitment(other_seed), all_of(deck)) == [
        f"the seed hashes to {published}, not to the published commitment {commitment(other_seed)}"
    ]

    swapped = {"the history's cards": {0: deck[1], 5: deck[5]}}
    assert verify(seed, source.contributions, published, swapped) == [
        f"the history's cards, deck position 0: {cards_text([deck[1]])}, where the seed gives {cards_text([deck[0]])}"
    ]


@pytest.mark.parametrize(("seed", "problem"), [("zz", "not hex"), ("00" * 31, "31 bytes")])
def test_a_seed_that_is_not_32_bytes_of_hex_is_reported(seed: str, problem: str) -> None:
    [reported] = verify(seed, (), VECTOR_COMMITMENT, {})
    assert problem in reported


def test_the_documented_verifier_derives_the_same_decks() -> None:
    """docs/fair-deal.md's snippet (hashlib and hmac only) is the scheme: run it against the engine's."""
    snippet = re.search(r"```python\n(.*?)```", DOC.read_text(encoding="utf-8"), re.DOTALL)
    assert snippet, "docs/fair-deal.md has a Python verifier"
    namespace: dict[str, object] = {}
    exec(snippet.group(1).split("# --- your hand ---")[0], namespace)
    documented_deck = namespace["deck"]
    assert callable(documented_deck)
    assert "".join(documented_deck(SEED.hex(), ["table-1"])) == VECTOR_DECK
    for seed in seeds(20):
        contributions = [seed[:4].hex(), "table-x"]
        assert parse_cards("".join(documented_deck(seed.hex(), contributions))) == tuple(
            derive_deck(seed, contributions)
        )
