"""Random legal play: for simulations, benchmarks, property tests and bots that must only make legal moves."""

from __future__ import annotations

from itertools import product
from typing import Protocol

from table_engine.domain.actions import CALL, CHECK, FOLD, MUCK, SHOW, Action, LegalActions
from table_engine.domain.hand import Hand


class SupportsRandom(Protocol):
    """``random.Random`` fits."""

    def random(self) -> float: ...

    def randint(self, a: int, b: int) -> int: ...


def random_action(legal: LegalActions, rng: SupportsRandom) -> Action:
    """One of the allowed kinds of action, uniformly; a bet or raise to a uniform amount within the bounds."""
    choices = _CHOICES[legal.fold, legal.check, legal.call is not None, legal.min_raise_to is not None, legal.show]
    if not choices:
        raise ValueError(f"nothing is allowed: {legal}")
    choice = choices[int(rng.random() * len(choices))]
    if choice is None:
        assert legal.min_raise_to is not None and legal.max_raise_to is not None
        return Action.raise_to(rng.randint(legal.min_raise_to, legal.max_raise_to))
    return choice


def _choices(fold: bool, check: bool, call: bool, bet: bool, show: bool) -> tuple[Action | None, ...]:
    """The actions to draw from, None standing for "bet or raise"."""
    allowed = ((fold, FOLD), (check, CHECK), (call, CALL), (bet, None), (show, SHOW), (show, MUCK))
    return tuple(action for flag, action in allowed if flag)


# Every combination of allowed kinds, computed once: the draw is on the hot path of simulations.
_CHOICES = {flags: _choices(*flags) for flags in product((False, True), repeat=5)}


def play_out(hand: Hand, rng: SupportsRandom) -> Hand:
    """Play ``hand`` to the end with random legal actions; returns it."""
    while (seat := hand.to_act) is not None:
        hand.act(seat, random_action(hand.legal_actions(), rng))
    return hand
