"""What a player sends (``Action``) and what the engine offers (``LegalActions``).

Amount convention: a bet or raise is expressed as the player's TOTAL bet on the current street after the
action ("raise to"), never as the increment. Pre-flop the blinds count: with blinds 50/100, a min-raise is
``Action.raise_to(200)``, which adds 150 chips for the small blind and 100 for the big blind. ``call`` in
``LegalActions`` is the opposite: the chips the call adds.
"""

from __future__ import annotations

from enum import StrEnum
from typing import NamedTuple


class ActionKind(StrEnum):
    FOLD = "fold"
    CHECK = "check"
    CALL = "call"
    BET = "bet"
    """Opening bet of a street. ``act`` treats BET and RAISE alike ("bet or raise to"); events say which."""
    RAISE = "raise"
    SHOW = "show"
    """Showdown only, and only in a hand configured with ``manual_showdown``."""
    MUCK = "muck"
    """Showdown only: give up the pots that are still contested, without showing."""


class Action(NamedTuple):
    """A player's action. ``amount`` is only read for BET/RAISE: the total street bet ("raise to")."""

    kind: ActionKind
    amount: int = 0

    @staticmethod
    def raise_to(amount: int) -> Action:
        """Bet or raise so that this street's total bet becomes ``amount``."""
        return Action(ActionKind.RAISE, amount)


FOLD = Action(ActionKind.FOLD)
CHECK = Action(ActionKind.CHECK)
CALL = Action(ActionKind.CALL)
SHOW = Action(ActionKind.SHOW)
MUCK = Action(ActionKind.MUCK)


class LegalActions(NamedTuple):
    """Everything ``seat`` may do right now; all False/None when it is not that seat's turn.

    - ``fold``: only when facing a bet (folding when a check is free is refused).
    - ``check``: nothing to call.
    - ``call``: chips a call adds (all-in calls included), None when there is nothing to call.
    - ``min_raise_to``/``max_raise_to``: inclusive bounds of the TOTAL street bet of a bet or raise, None
      when betting or raising is not allowed. An all-in short of a full raise shows up as
      ``min_raise_to == max_raise_to == stack + current bet``. Fixed-limit: min == max.
    - ``show``/``muck``: manual showdown decisions.
    """

    seat: int | None
    fold: bool = False
    check: bool = False
    call: int | None = None
    min_raise_to: int | None = None
    max_raise_to: int | None = None
    show: bool = False
    muck: bool = False

    @property
    def can_raise(self) -> bool:
        return self.min_raise_to is not None

    @property
    def is_turn(self) -> bool:
        return self.fold or self.check or self.call is not None or self.show or self.muck
