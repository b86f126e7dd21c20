"""One hand of Texas Hold'em as a pure state machine (P-1.1, P-1.2, P-1.2a).

``Hand(config, deck)`` posts the forced bets and deals; then ``act(seat, action)`` until ``is_complete``. The
hand is deterministic given the deck: it deals from the deck's front and never shuffles.

Dealing: one card at a time clockwise from the button's left, two rounds (player ``i`` of ``n`` gets
``deck[i]`` and ``deck[i + n]``); then burn and three cards for the flop, burn and one for the turn, burn and
one for the river. A hand needs ``2 * n + 8`` cards.

Internally every list is indexed by *position*: 0 is the first dealt-in seat left of the button, so position
order is dealing order, the order of odd chips and the PHH player order. Seat numbers appear only at the API.

Betting (NL and PL; WSOP rules 96/96a, P-1.2a):
- ``_current`` is the bet to match. Pre-flop it is the big blind even when the big blind is posted short
  (P-1.2a), and a raise must then reach two big blinds.
- ``_min_raise`` is the size of the last *full* raise (initially the big blind). A raise smaller than that
  (only possible all-in) is incomplete: it does not change ``_min_raise``.
- A player who has already acted this round may raise again only if the bet grew by at least a full raise
  since (``_current - own bet >= _min_raise``). An incomplete all-in alone never satisfies that; consecutive
  incomplete all-ins that add up to a full raise do (WSOP 96a), and the minimum raise stays the last full one.
Fixed-limit:
- ``_level`` is the last full bet level: a bet or raise is to ``_level + unit``. An all-in that exceeds
  ``_level`` by at least half a unit counts as a full bet (it becomes the level, counts toward the cap and
  reopens the betting); a smaller one does not (P-1.2a). A player who already acted may raise again only if
  the level rose above their bet.
- Cap: a bet and ``raise_cap`` raises per round (pre-flop the big blind is the bet), lifted in a heads-up hand
  when the rules say so.
Uncalled bets come back at the end of each round (and, at the end of the hand, a folded player's ante above
what every player still in put in). The chips go into pots by contribution level (``pots.build_pots``), every
pot split on its own with odd chips left of the button (``pots.split``).

Showdown (WSOP rules 70, 72): when a player still in is all-in, every hand still in is turned face up. Otherwise
players show or muck in order: the last aggressor of the river first, else the first player left of the
button (then there is a single pot: everyone still in matched every bet). The last hand not mucked wins
without showing. ``manual_showdown`` lets the players decide; by default the engine shows a hand that beats
or ties every hand shown so far and mucks a beaten one.
"""

from __future__ import annotations

from collections.abc import Sequence

from table_engine.domain.actions import Action, ActionKind, LegalActions
from table_engine.domain.cards import board_slots, cards_needed, validated_deck
from table_engine.domain.errors import ActionRejected, InvalidConfiguration, RejectionCode
from table_engine.domain.evaluator import DISTINCT_HANDS, evaluate7
from table_engine.domain.events import (
    ActionTaken,
    CardsMucked,
    CardsShown,
    Event,
    ForcedBet,
    ForcedBetPosted,
    HandCompleted,
    HoleCardsDealt,
    PotAwarded,
    Street,
    StreetDealt,
    UncalledBetReturned,
)
from table_engine.domain.pots import Pot, build_pots, split
from table_engine.domain.result import HandResult, PotResult
from table_engine.domain.rules import BettingStructure, HandConfig, TableRules
from table_engine.domain.seating import Positions

_PREFLOP, _FLOP, _TURN, _RIVER, _SHOWDOWN, _COMPLETE = range(6)
_STREETS = tuple(Street)
_FLIP = DISTINCT_HANDS + 1
_FOLD, _CHECK, _CALL, _BET, _RAISE, _SHOW, _MUCK = (
    ActionKind.FOLD,
    ActionKind.CHECK,
    ActionKind.CALL,
    ActionKind.BET,
    ActionKind.RAISE,
    ActionKind.SHOW,
    ActionKind.MUCK,
)

_RAISE_REFUSALS = {
    RejectionCode.STACK_TOO_SHORT_TO_RAISE: "the stack does not cover more than a call",
    RejectionCode.NO_OPPONENT_TO_RAISE: "every other player still in is all-in or covered by the current bet",
    RejectionCode.RAISE_NOT_REOPENED: (
        "the betting was not reopened: since this player acted, it grew by less than a full raise (WSOP 96)"
    ),
    RejectionCode.RAISE_CAP_REACHED: "the round reached its cap of a bet and the allowed raises (WSOP 100b)",
}


class Hand:
    """A hand in progress; see the module docstring for the rules it applies.

    Not thread-safe; one instance per hand. Every public method either completes or raises without changing
    the hand (``ActionRejected`` for refused actions, ``InvalidConfiguration`` for an unplayable setup).
    """

    __slots__ = (
        "_acted",
        "_active",
        "_aggressor",
        "_bb_position",
        "_bet",
        "_bettors",
        "_big_bet",
        "_big_blind",
        "_board",
        "_board_slots",
        "_current",
        "_dead",
        "_deck",
        "_events",
        "_fixed",
        "_folded",
        "_hole",
        "_level",
        "_manual",
        "_max_bets",
        "_min_raise",
        "_mucked",
        "_n",
        "_paid",
        "_position",
        "_pot",
        "_pot_limit",
        "_raises",
        "_result",
        "_returned",
        "_seats",
        "_showdown_next",
        "_showdown_queue",
        "_shown",
        "_small_bet",
        "_stack",
        "_street",
        "_strength",
        "_to_act",
        "_unit",
        "config",
    )

    def __init__(self, config: HandConfig, deck: Sequence[int]) -> None:
        order = config.order
        n = len(order)
        try:
            cards = validated_deck(deck, cards_needed(n))
        except ValueError as error:
            raise InvalidConfiguration(str(error)) from None
        rules = config.rules
        self.config = config
        self._n = n
        self._seats = order
        self._position = dict(zip(order, range(n), strict=True))
        self._deck = cards
        self._hole = tuple(zip(cards[:n], cards[n : 2 * n], strict=True))
        self._board_slots = board_slots(n)
        self._board: list[int] = []
        self._stack = [config.seats[seat].stack for seat in order]
        self._bet = [0] * n
        self._paid = [0] * n  # live chips put in this hand: antes, blinds, bets (less uncalled returns)
        self._folded = [False] * n
        self._acted = [False] * n
        self._shown = [False] * n
        self._mucked = [False] * n
        self._strength = [0] * n  # 0 until evaluated
        self._active = n  # players who have not folded
        self._bettors = n  # players who have not folded and still have chips
        self._pot = 0  # chips collected from finished rounds, antes and dead money
        self._dead = 0  # the big-blind ante: in the main pot, not a contribution level
        self._events: list[Event] = []
        self._fixed = rules.is_fixed_limit
        self._pot_limit = rules.structure is BettingStructure.POT_LIMIT
        self._big_blind = rules.big_blind
        self._small_bet = rules.limit_small_bet
        self._big_bet = rules.limit_big_bet
        # Fixed-limit: bets allowed per round (the bet plus the raises); 0 means no cap.
        cap = rules.raise_cap
        self._max_bets = 0 if cap is None or (n == 2 and rules.uncapped_heads_up) else cap + 1
        self._manual = config.manual_showdown
        self._returned: dict[int, int] = {}
        self._showdown_queue: list[int] = []
        self._showdown_next = 0
        self._result: HandResult | None = None
        # Betting-round state, set by _start_round.
        self._street = _PREFLOP
        self._current = self._min_raise = self._level = self._raises = self._unit = 0
        self._aggressor = self._to_act = -1
        self._bb_position = self._position[config.positions.big_blind]
        self._post_forced_bets(rules, config.positions)
        self._events.append(HoleCardsDealt(order))
        self._start_round(_PREFLOP)

    # ----------------------------------------------------------------------------------------------- queries

    @property
    def street(self) -> Street:
        return _STREETS[self._street]

    @property
    def to_act(self) -> int | None:
        """The seat whose turn it is, or None (hand complete)."""
        return self._seats[self._to_act] if self._to_act >= 0 else None

    @property
    def is_complete(self) -> bool:
        return self._street == _COMPLETE

    @property
    def board(self) -> tuple[int, ...]:
        return tuple(self._board)

    @property
    def events(self) -> tuple[Event, ...]:
        """Every event since the hand started, the forced bets and the deal included."""
        return tuple(self._events)

    @property
    def deck(self) -> tuple[int, ...]:
        """The deck as given: for audit and replay only (P-1.3), never for players."""
        return self._deck

    @property
    def stacks(self) -> dict[int, int]:
        """Seat -> chips behind (not counting the current street's bet)."""
        return {seat: self._stack[p] for p, seat in enumerate(self._seats)}

    @property
    def bets(self) -> dict[int, int]:
        """Seat -> chips bet on the current street, not yet collected."""
        return {seat: self._bet[p] for p, seat in enumerate(self._seats)}

    @property
    def folded(self) -> frozenset[int]:
        return frozenset(seat for p, seat in enumerate(self._seats) if self._folded[p])

    @property
    def pot_total(self) -> int:
        """Every chip in the middle: the pots plus the current street's bets."""
        return self._pot + sum(self._bet)

    @property
    def pots(self) -> tuple[Pot, ...]:
        """Main and side pots of the chips collected so far (current bets excluded), eligible as seats."""
        if self._street == _COMPLETE:
            return ()
        collected = [paid - bet for paid, bet in zip(self._paid, self._bet, strict=True)]
        seats = self._seats
        return tuple(
            Pot(pot.amount, tuple(seats[p] for p in pot.eligible))
            for pot in build_pots(collected, self._folded, self._dead)
        )

    @property
    def result(self) -> HandResult:
        """The outcome; raises ``ActionRejected`` while the hand is still being played."""
        if self._result is None:
            if self._street != _COMPLETE:
                raise ActionRejected(RejectionCode.WRONG_PHASE, "the hand is not complete yet")
            self._result = self._build_result()
        return self._result

    def hole_cards(self, seat: int) -> tuple[int, int]:
        """PRIVATE: ``seat``'s hole cards. Send them to that seat's player only (P-1.4)."""
        return self._hole[self._position_of(seat)]

    def shown_cards(self) -> dict[int, tuple[int, int]]:
        """Seat -> hole cards shown at the table so far: public."""
        return {seat: self._hole[p] for p, seat in enumerate(self._seats) if self._shown[p]}

    def visible_hole_cards(self, viewer: int | None) -> dict[int, tuple[int, int] | None]:
        """Seat -> hole cards as ``viewer`` may see them (their own, and shown ones), None when hidden.

        ``viewer=None`` is a spectator: only the shown cards.
        """
        return {seat: self._hole[p] if seat == viewer or self._shown[p] else None for p, seat in enumerate(self._seats)}

    def legal_actions(self, seat: int | None = None) -> LegalActions:
        """What the seat to act (or ``seat``) may do now; nothing when it is not that seat's turn."""
        p = self._to_act
        if p < 0 or (seat is not None and self._seats[p] != seat):
            return LegalActions(seat)
        actor = self._seats[p]
        if self._street == _SHOWDOWN:
            return LegalActions(actor, show=True, muck=True)
        bounds = self._raise_bounds(p)
        low = high = None
        if isinstance(bounds, tuple):
            low, high = bounds
        to_call = self._current - self._bet[p]
        if to_call > 0:
            stack = self._stack[p]
            return LegalActions(actor, True, False, to_call if to_call < stack else stack, low, high)
        return LegalActions(actor, False, True, None, low, high)

    # ------------------------------------------------------------------------------------------------ action

    def act(self, seat: int, action: Action) -> list[Event]:
        """Apply ``seat``'s action and return the events it caused, up to the next decision.

        Raises ``ActionRejected`` (the hand unchanged) when the action is not allowed now.
        """
        p = self._to_act
        if p < 0:
            raise ActionRejected(RejectionCode.HAND_COMPLETE, "the hand is complete")
        if self._seats[p] != seat:
            self._position_of(seat)  # an unknown seat is refused as such
            raise ActionRejected(
                RejectionCode.NOT_YOUR_TURN, f"it is seat {self._seats[p]}'s turn to act, not seat {seat}'s"
            )
        if type(action.kind) is not ActionKind:  # e.g. a plain "raise" decoded from JSON
            try:
                action = Action(ActionKind(action.kind), action.amount)
            except ValueError:
                raise ActionRejected(RejectionCode.UNKNOWN_ACTION, f"no such action: {action.kind!r}") from None
        mark = len(self._events)
        if self._street == _SHOWDOWN:
            self._showdown_action(p, action.kind)
        else:
            self._betting_action(p, action)
        return self._events[mark:]

    def _betting_action(self, p: int, action: Action) -> None:
        kind = action.kind
        seat = self._seats[p]
        stack = self._stack
        bet = self._bet
        to_call = self._current - bet[p]
        if kind is _CALL:
            if to_call <= 0:
                raise ActionRejected(RejectionCode.CANNOT_CALL, f"seat {seat} has nothing to call: check")
            added = to_call if to_call < stack[p] else stack[p]
            stack[p] -= added
            bet[p] += added
            self._paid[p] += added
            if not stack[p]:
                self._bettors -= 1
            self._events.append(ActionTaken(seat, _CALL, added, bet[p], not stack[p]))
        elif kind is _CHECK:
            if to_call > 0:
                raise ActionRejected(RejectionCode.CANNOT_CHECK, f"seat {seat} faces a bet: {to_call} to call")
            self._events.append(ActionTaken(seat, _CHECK, 0, bet[p], False))
        elif kind is _FOLD:
            if to_call <= 0:
                raise ActionRejected(RejectionCode.CANNOT_FOLD, f"seat {seat} has nothing to call: check")
            self._folded[p] = True
            self._active -= 1
            self._bettors -= 1  # a player who acts has chips
            self._events.append(ActionTaken(seat, _FOLD, 0, bet[p], False))
            if self._active == 1:
                self._end_round()
                return
        elif kind is _RAISE or kind is _BET:
            bounds = self._raise_bounds(p)
            if not isinstance(bounds, tuple):
                raise ActionRejected(bounds, f"seat {seat} cannot bet or raise: {_RAISE_REFUSALS[bounds]}")
            amount = action.amount
            if type(amount) is not int:
                raise ActionRejected(RejectionCode.INVALID_AMOUNT, f"amounts are integer chips, not {amount!r}")
            if amount < bounds[0]:
                raise ActionRejected(
                    RejectionCode.AMOUNT_TOO_SMALL,
                    f"seat {seat} may bet or raise to {bounds[0]} at least, not to {amount}",
                )
            if amount > bounds[1]:
                raise ActionRejected(
                    RejectionCode.AMOUNT_TOO_LARGE, f"seat {seat} may bet or raise to {bounds[1]} at most, not {amount}"
                )
            self._raise_to(p, amount)
        else:
            raise ActionRejected(RejectionCode.WRONG_PHASE, f"{kind} is only possible at showdown")
        self._acted[p] = True
        actor = self._find_actor(p + 1 if p + 1 < self._n else 0)
        if actor < 0:
            self._end_round()
        else:
            self._to_act = actor

    def _raise_to(self, p: int, total: int) -> None:
        added = total - self._bet[p]
        self._stack[p] -= added
        self._bet[p] = total
        self._paid[p] += added
        if not self._stack[p]:
            self._bettors -= 1
        current = self._current
        if self._fixed:
            # A full bet, or an all-in of at least half a bet, sets a new bet level (P-1.2a).
            if 2 * (total - self._level) >= self._unit:
                self._level = total
                self._raises += 1
        elif total - current >= self._min_raise:
            self._min_raise = total - current
        self._current = total
        self._aggressor = p
        self._events.append(
            ActionTaken(self._seats[p], _BET if current == 0 else _RAISE, added, total, not self._stack[p])
        )

    def _raise_bounds(self, p: int) -> tuple[int, int] | RejectionCode:
        """(min, max) total a bet or raise by ``p`` may reach now, or why ``p`` may not bet or raise."""
        stack = self._stack
        bet = self._bet
        current = self._current
        own = bet[p]
        all_in = stack[p] + own
        if all_in <= current:
            return RejectionCode.STACK_TOO_SHORT_TO_RAISE
        folded = self._folded
        for q in range(self._n):
            if q != p and not folded[q] and stack[q] + bet[q] > current:
                break
        else:
            return RejectionCode.NO_OPPONENT_TO_RAISE
        if self._fixed:
            if self._acted[p] and self._level <= own:
                return RejectionCode.RAISE_NOT_REOPENED
            if self._max_bets and self._raises >= self._max_bets:
                return RejectionCode.RAISE_CAP_REACHED
            target = self._level + self._unit
            return (target, target) if target < all_in else (all_in, all_in)
        if self._acted[p] and current - own < self._min_raise:
            return RejectionCode.RAISE_NOT_REOPENED
        low = current + self._min_raise
        if low >= all_in:
            return all_in, all_in
        if self._pot_limit:
            # Raise to: the bet to match plus the pot after calling it; a minimum raise is always allowed.
            pot_limit = 2 * current - own + self._pot + sum(bet)
            return low, max(low, pot_limit if pot_limit < all_in else all_in)
        return low, all_in

    # ---------------------------------------------------------------------------------------- betting rounds

    def _post_forced_bets(self, rules: TableRules, positions: Positions) -> None:
        if rules.ante and not rules.big_blind_ante:
            for p in range(self._n):
                self._post(p, rules.ante, ForcedBet.ANTE)
        if rules.big_blind_ante:
            self._post(self._bb_position, rules.ante, ForcedBet.BIG_BLIND_ANTE)  # before the big blind
        small_blind = self._position.get(positions.small_blind)
        if small_blind is not None:
            self._post(small_blind, rules.small_blind, ForcedBet.SMALL_BLIND)
        self._post(self._bb_position, rules.big_blind, ForcedBet.BIG_BLIND)

    def _post(self, p: int, amount: int, kind: ForcedBet) -> None:
        amount = min(amount, self._stack[p])
        if not amount:
            return  # already all-in from an earlier forced bet
        self._stack[p] -= amount
        if not self._stack[p]:
            self._bettors -= 1
        if kind is ForcedBet.BIG_BLIND_ANTE:
            self._dead += amount
            self._pot += amount
        elif kind is ForcedBet.ANTE:
            self._paid[p] += amount
            self._pot += amount
        else:
            self._bet[p] += amount
            self._paid[p] += amount
        self._events.append(ForcedBetPosted(self._seats[p], kind, amount, not self._stack[p]))

    def _start_round(self, street: int) -> None:
        self._street = street
        self._acted = [False] * self._n
        self._aggressor = -1
        if street == _PREFLOP:
            self._current = self._min_raise = self._level = self._big_blind
            self._raises = 1  # fixed-limit: the big blind is the round's bet
            self._unit = self._small_bet
            first = self._bb_position + 1
        else:
            self._current = self._level = self._raises = 0
            self._min_raise = self._big_blind
            self._unit = self._small_bet if street == _FLOP else self._big_bet
            first = 0
        actor = self._find_actor(first % self._n)
        if actor < 0:
            self._end_round()
        else:
            self._to_act = actor

    def _find_actor(self, start: int) -> int:
        """The first position from ``start`` on, clockwise, that must act, or -1 when the round is over."""
        n = self._n
        stack = self._stack
        bet = self._bet
        folded = self._folded
        acted = self._acted
        current = self._current
        for k in range(n):
            p = start + k
            if p >= n:
                p -= n
            if folded[p] or not stack[p]:
                continue
            if bet[p] < current:
                return p
            # A matched player who has not acted yet (the big blind's option) acts if anyone could answer.
            if not acted[p] and self._bettors > 1:
                return p
        return -1

    def _end_round(self) -> None:
        self._to_act = -1
        bet = self._bet
        top = second = 0
        top_position = -1
        for p, amount in enumerate(bet):
            if amount > top:
                second, top, top_position = top, amount, p
            elif amount > second:
                second = amount
        self._pot += sum(bet)
        if top > second:
            # Nobody matched the top bet beyond the second highest: that part goes back.
            self._give_back(top_position, top - second)
        self._bet = [0] * self._n
        if self._active == 1:
            self._settle()
        elif self._street == _RIVER:
            self._showdown()
        elif self._bettors < 2:
            # Nobody can bet any more: hands face up (WSOP rule 70), then the rest of the board.
            self._reveal(self._showdown_order())
            while self._street < _RIVER:
                self._deal_next_street()
            self._showdown()
        else:
            self._deal_next_street()
            self._start_round(self._street)

    def _deal_next_street(self) -> None:
        street = self._street + 1
        slots = self._board_slots
        deck = self._deck
        cards = (deck[slots[0]], deck[slots[1]], deck[slots[2]]) if street == _FLOP else (deck[slots[street + 1]],)
        self._board.extend(cards)
        self._street = street
        self._events.append(StreetDealt(_STREETS[street], cards, tuple(self._board)))

    # ---------------------------------------------------------------------------------------------- showdown

    def _showdown_order(self) -> list[int]:
        """Players still in, from the round's last aggressor, else from the button's left (WSOP rule 72)."""
        n = self._n
        start = self._aggressor if self._aggressor >= 0 else 0
        order = []
        for k in range(n):
            p = (start + k) % n
            if not self._folded[p]:
                order.append(p)
        return order

    def _showdown(self) -> None:
        self._street = _SHOWDOWN
        order = self._showdown_order()
        if any(not self._stack[p] for p in order):
            self._reveal(order)
            self._settle()
            return
        # Nobody is all-in, so everyone still in matched every bet: there is a single pot to show down for.
        self._showdown_queue = order
        self._showdown_next = 0
        self._continue_showdown()

    def _continue_showdown(self) -> None:
        queue = self._showdown_queue
        mucked = self._mucked
        while self._showdown_next < len(queue):
            p = queue[self._showdown_next]
            if any(q != p and not mucked[q] for q in queue):  # else p is the last hand and wins unseen
                if self._manual:
                    self._to_act = p
                    return
                if self._could_win(p):
                    self._show(p)
                else:
                    self._muck(p)
            self._showdown_next += 1
        self._to_act = -1
        self._settle()

    def _showdown_action(self, p: int, kind: ActionKind) -> None:
        if kind is _SHOW:
            self._show(p)
        elif kind is _MUCK:
            self._muck(p)
        else:
            raise ActionRejected(RejectionCode.WRONG_PHASE, f"at showdown a player shows or mucks, not {kind}")
        self._showdown_next += 1
        self._continue_showdown()

    def _could_win(self, p: int) -> bool:
        """Whether ``p`` beats or ties every hand shown so far."""
        shown = [self._strength_of(q) for q in self._showdown_queue if self._shown[q]]
        return not shown or self._strength_of(p) >= max(shown)

    def _strength_of(self, p: int) -> int:
        strength = self._strength[p]
        if not strength:
            first, second = self._hole[p]
            board = self._board
            strength = _FLIP - evaluate7(first, second, board[0], board[1], board[2], board[3], board[4])
            self._strength[p] = strength
        return strength

    def _reveal(self, order: list[int]) -> None:
        for p in order:
            if not self._shown[p]:
                self._show(p)

    def _show(self, p: int) -> None:
        self._shown[p] = True
        self._events.append(CardsShown(self._seats[p], self._hole[p]))

    def _muck(self, p: int) -> None:
        self._mucked[p] = True
        self._events.append(CardsMucked(self._seats[p]))

    def _pot_winners(self, eligible: tuple[int, ...]) -> list[int]:
        shown = [p for p in eligible if self._shown[p]]
        if shown:
            best = max(self._strength_of(p) for p in shown)
            return [p for p in shown if self._strength[p] == best]
        return [p for p in eligible if not self._mucked[p]]  # the one hand left: the others folded or mucked

    # ------------------------------------------------------------------------------------------------ ending

    def _settle(self) -> None:
        self._return_unmatched_antes()
        seats = self._seats
        stack = self._stack
        for index, pot in enumerate(build_pots(self._paid, self._folded, self._dead)):
            shares = split(pot.amount, self._pot_winners(pot.eligible))
            for p, chips in shares:
                stack[p] += chips
            self._events.append(
                PotAwarded(
                    index,
                    pot.amount,
                    tuple([seats[p] for p in pot.eligible]),
                    tuple([(seats[p], chips) for p, chips in shares]),
                )
            )
        self._pot = 0
        self._street = _COMPLETE
        self._to_act = -1
        self._events.append(HandCompleted(tuple(zip(seats, stack, strict=True))))

    def _return_unmatched_antes(self) -> None:
        """Give back what a folded player put in above every player still in: nobody can win it.

        Uncalled bets already came back at the end of each round; what remains is an ante above the ante of
        a player all-in for less, when everyone who paid more folded. A player wins from each opponent at most
        what they put in themselves.
        """
        paid = self._paid
        top = max(paid[p] for p in range(self._n) if not self._folded[p])
        for p in range(self._n):
            if paid[p] > top:
                self._give_back(p, paid[p] - top)

    def _give_back(self, p: int, chips: int) -> None:
        if not self._stack[p] and not self._folded[p]:
            self._bettors += 1  # an all-in bet partly uncalled: chips behind again
        self._stack[p] += chips
        self._paid[p] -= chips
        self._pot -= chips
        seat = self._seats[p]
        self._returned[seat] = self._returned.get(seat, 0) + chips
        self._events.append(UncalledBetReturned(seat, chips))

    def _build_result(self) -> HandResult:
        seats = self._seats
        start = self.config.start_stacks
        button = self.config.positions.button

        def rank_key(p: int) -> tuple[int, int]:
            # P-2.2: more chips at the start ranks higher; P-2.3: then the button, then clockwise from it.
            return -start[seats[p]], 0 if seats[p] == button else p + 1

        busted = sorted((p for p in range(self._n) if not self._stack[p]), key=rank_key)
        pots = tuple(
            PotResult(event.amount, event.eligible, dict(event.shares))
            for event in self._events
            if isinstance(event, PotAwarded)
        )
        return HandResult(
            start_stacks=start,
            end_stacks={seat: self._stack[p] for p, seat in enumerate(seats)},
            pots=pots,
            busted=tuple(seats[p] for p in busted),
            shown=self.shown_cards(),
            board=tuple(self._board),
            returned=dict(self._returned),
        )

    def _position_of(self, seat: int) -> int:
        try:
            return self._position[seat]
        except KeyError:
            raise ActionRejected(RejectionCode.UNKNOWN_SEAT, f"seat {seat} is not dealt in this hand") from None
