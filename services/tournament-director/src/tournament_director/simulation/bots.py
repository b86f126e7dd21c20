"""Bots for simulations: random legal actions, weighted so that tournaments end.

Uniformly random play (`table_engine.domain.random_play`) raises to random amounts so often that hands drag on
and stacks barely move. These bots fold a good share of their hands, call some, raise small now and then and
shove now and then, so players bust at a steady pace whatever the blinds. Only legal actions are produced.
"""

from __future__ import annotations

import random

from table_engine.domain import CALL, CHECK, FOLD, Action, LegalActions

#: Facing a bet: fold, call, raise (up to three times the minimum), all-in — cumulative thresholds.
_FACING_FOLD, _FACING_CALL, _FACING_RAISE = 0.60, 0.92, 0.99
#: Nothing to call: check, bet (up to three times the minimum), all-in — cumulative thresholds.
_FREE_CHECK, _FREE_BET = 0.75, 0.99


def bot_action(legal: LegalActions, rng: random.Random) -> Action:
    """A legal action for the seat `legal` describes."""
    roll = rng.random()
    low, high = legal.min_raise_to, legal.max_raise_to
    if legal.call is not None:
        if roll < _FACING_FOLD:
            return FOLD
        if roll < _FACING_CALL or low is None or high is None:
            return CALL
        if roll < _FACING_RAISE:
            return Action.raise_to(rng.randint(low, min(high, 3 * low)))
        return Action.raise_to(high)
    if roll < _FREE_CHECK or low is None or high is None:
        return CHECK
    if roll < _FREE_BET:
        return Action.raise_to(rng.randint(low, min(high, 3 * low)))
    return Action.raise_to(high)
