"""One table between two saves: applies a command (or the clock) to the table and its hand, and says what to
publish. Pure (no I/O), hence in domain/: the host (service/host.py) loads the table, runs one method, saves
the result and writes the events to the outbox in the same transaction.

A refused command raises `Refusal` before anything changes; the host turns it into the rejection event.

Pace: a hand is dealt no sooner than `pause` after the table's last hand ended. A StartHand that comes sooner
is kept (`Table.next_hand`, saved with the table) and the timer (`clock`) deals it when its time comes, so a
table plays at most 60 / pause hands a minute however fast the director answers — also when nobody acts and
every hand is blinds posted and folded.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any, Literal, Protocol

from platform_kit.events import Event
from platform_kit.events import table as contract

from table_engine.domain import (
    ActionKind,
    ActionRejected,
    BettingStructure,
    Hand,
    HandConfig,
    InvalidConfiguration,
    Positions,
    SeatConfig,
    StreetDealt,
    initial_positions,
    next_positions,
)
from table_engine.domain.fair_deal import DeckSource, commitment
from table_engine.domain.live import LiveHand, Turn
from table_engine.domain.model import NextHand, Seat, Table
from table_engine.domain.protection import default_action, protect_all_in, protection_for
from table_engine.domain.records import RecordedAction, positions_to_json, rules_for
from table_engine.domain.translate import (
    Automatic,
    cards,
    chips_paid,
    completion_events,
    new_events,
    returned,
    street_dealt,
)

_KINDS = {"fold": ActionKind.FOLD, "check": ActionKind.CHECK, "call": ActionKind.CALL}


class Dealer(Protocol):
    """The randomness and the identities of the hands a table deals (P-1.3), injected by the host."""

    def new_seed(self) -> bytes:
        """A fresh secret seed from the secure generator: one per hand, never reused."""
        ...

    def deal(self, source: DeckSource) -> tuple[str, Sequence[int]]:
        """The id and the deck of a hand about to be dealt from `source`: called only when one is."""
        ...


class Refusal(Exception):
    """A command the table does not accept now; nothing changed."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


@dataclass(frozen=True)
class EndedHand:
    hand_id: str
    status: Literal["completed", "voided"]
    end_stacks: dict[int, int]
    source: DeckSource | None
    """The ended hand's deck source: its seed may be revealed now, and contributes to the next deck."""


@dataclass
class Effects:
    """What a command caused besides the table's new state: the events to publish (each under the routing key
    its contract declares: a `PrivateTableEvent` reaches its recipient alone, P-1.4) and the players whose
    disconnection protection was used."""

    messages: list[Event] = field(default_factory=list)
    protections_used: list[str] = field(default_factory=list)

    def emit(self, *events: Event) -> None:
        self.messages.extend(events)


def new_table(
    command: contract.OpenTable,
    *,
    shard: int,
    now: datetime,
    draw_button: Callable[[list[int]], int],
    draw_seed: Callable[[], bytes],
) -> Table:
    """The table an OpenTable command describes; `draw_button` picks the first button when none is given,
    `draw_seed` the secret seed of the first hand, committed to in `table.table.opened` (docs/fair-deal.md)."""
    numbers = [player.seat for player in command.seats]
    if len(set(numbers)) != len(numbers) or len({p.player_id for p in command.seats}) != len(numbers):
        raise Refusal("invalid_seating", "two players share a seat, or a player has two seats")
    if any(n > command.max_seats for n in numbers):
        raise Refusal("invalid_seating", f"the table has seats 1 to {command.max_seats}")
    if command.button_seat is not None and command.button_seat not in numbers:
        raise Refusal("invalid_seating", "the first button must be on an occupied seat")
    first_button = command.button_seat
    if first_button is None and numbers:
        first_button = draw_button(sorted(numbers))
    return Table(
        table_id=command.table_id,
        tournament_id=command.tournament_id,
        shard=shard,
        max_seats=command.max_seats,
        structure=BettingStructure(command.betting_structure),
        action_seconds=command.action_seconds,
        time_bank_seconds=command.time_bank_seconds,
        policy=command.disconnect_policy,
        status="open",
        first_button=first_button,
        positions=None,
        level=None,
        hand_no=0,
        current_hand_id=None,
        opened_at=now,
        seats={
            p.seat: Seat(p.seat, p.player_id, p.stack, time_bank_ms=command.time_bank_seconds * 1000)
            for p in command.seats
        },
        next_seed=draw_seed().hex(),
    )


def next_deck_commitment(table: Table) -> str | None:
    """What the table has committed to for its next hand: the SHA-256 of its next seed (docs/fair-deal.md)."""
    return commitment(bytes.fromhex(table.next_seed)) if table.next_seed else None


class TableMachine:
    def __init__(self, table: Table, live: LiveHand | None, now: datetime) -> None:
        self.table = table
        self.live = live
        self.now = now
        self.effects = Effects()
        self.played = live
        """The hand this command played in (it may have ended meanwhile): its record is saved."""
        self.started: Sequence[int] | None = None
        """The deck of the hand this command started (recorded for audit, P-1.3)."""
        self.ended: EndedHand | None = None

    # ------------------------------------------------------------------------------------ director commands

    def seat_player(self, player: contract.SeatedPlayer) -> None:
        table = self._open_table()
        if not 1 <= player.seat <= table.max_seats:
            raise Refusal("no_such_seat", f"the table has seats 1 to {table.max_seats}")
        if player.seat in table.seats:
            raise Refusal("seat_taken", f"seat {player.seat} is taken")
        if table.seat_of(player.player_id):
            raise Refusal("already_seated", f"{player.player_id} already has a seat at this table")
        table.seats[player.seat] = Seat(
            player.seat, player.player_id, player.stack, time_bank_ms=table.time_bank_seconds * 1000
        )
        self.effects.emit(
            contract.PlayerSeated(table_id=table.table_id, tournament_id=table.tournament_id, player=player)
        )

    def unseat_player(self, player_id: str, reason: str) -> None:
        seat = self._seat_of(player_id)
        if self._in_hand(seat.seat):
            # The hand still needs the seat; it leaves when the hand ends, folding meanwhile.
            seat.leaving = reason
            self._release_turn(seat.seat)
            return
        self._unseat(seat, reason)

    def add_chips(self, player_id: str, amount: int) -> None:
        seat = self._seat_of(player_id)
        # The director counts a hand it asked for as started: chips bought meanwhile wait for its end, so that
        # the hand starts with the stacks the director has on record.
        if self._in_hand(seat.seat) or self.table.next_hand is not None:
            seat.pending_chips += amount
        else:
            seat.stack += amount

    def pause(self) -> None:
        """No hand starts until the next StartHand: one kept for its pause is dropped."""
        self._open_table().status = "paused"
        self._drop_kept_hand()

    def close(self, reason: str) -> None:
        table = self._open_table()
        live = self.live
        if live is not None:
            self.void(live.hand_id, live.hand_no, live.hand.config, live.start_stacks, live.source)
        table.status = "closed"
        self._drop_kept_hand()
        self.effects.emit(
            contract.TableClosed(table_id=table.table_id, tournament_id=table.tournament_id, reason=reason)
        )

    def start_hand(self, command: contract.StartHand, dealer: Dealer, pause: timedelta) -> None:
        """Deal now if the pause after the last hand is over, else keep the command for `clock` to deal."""
        table = self._open_table()
        if self.live is not None:
            raise Refusal("hand_in_progress", f"hand {self.live.hand_id} is still being played")
        if table.next_hand is not None:
            waiting = table.next_hand
            raise Refusal("hand_in_progress", f"hand {waiting.hand_no} is dealt at {waiting.due_at.isoformat()}")
        ended = table.hand_ended_at
        due_at = self.now if ended is None else max(self.now, ended + pause)
        if due_at > self.now:
            table.next_hand = NextHand(command.hand_no, command.level, due_at)
            return
        self._deal(command.hand_no, command.level, dealer)

    def _deal(self, hand_no: int, level: contract.Level, dealer: Dealer) -> None:
        """Deal hand `hand_no`; raises `Refusal` (nothing changed) when the seats cannot make a hand."""
        table = self.table
        occupied = {n: s for n, s in table.seats.items() if s.stack > 0 and s.leaving is None}
        try:
            positions, dealt_in = self._positions(occupied)
            rules = rules_for(table.structure, level, tournament=table.tournament_id is not None)
            config = HandConfig(
                rules, {n: SeatConfig(occupied[n].player_id, occupied[n].stack) for n in dealt_in}, positions
            )
            # The seed committed to before any contribution to this hand was taken (one opened before
            # contributions existed has none yet: it draws one now, as before).
            seed = bytes.fromhex(table.next_seed) if table.next_seed else dealer.new_seed()
            source = DeckSource(seed, self._contributions())
            hand_id, deck = dealer.deal(source)
            hand = Hand(config, deck)
        except InvalidConfiguration as error:
            raise Refusal("cannot_deal", str(error)) from None
        # Commit to the following hand's seed at once: contributions arriving from now on go into that hand.
        table.next_seed = dealer.new_seed().hex()
        table.next_contributions = {}
        table.status = "open"
        table.level = level
        table.hand_no = hand_no
        table.current_hand_id = hand_id
        table.next_hand = None
        live = LiveHand(hand_id, hand_no, level, hand, [], dict(config.start_stacks), source=source)
        self.live = self.played = live
        self.started = deck
        self.effects.emit(
            contract.HandStarted(
                table_id=table.table_id,
                tournament_id=table.tournament_id,
                hand_id=hand_id,
                hand_no=hand_no,
                button_seat=positions.button,
                level=level,
                seats=[
                    contract.SeatedPlayer(seat=n, player_id=live.player_of(n), stack=live.start_stacks[n])
                    for n in live.dealt_in
                ],
                deck_commitment=source.commitment,
                next_deck_commitment=next_deck_commitment(table),
            )
        )
        for n in live.dealt_in:
            self.effects.emit(
                contract.HoleCardsDealt(
                    table_id=table.table_id,
                    hand_id=hand_id,
                    player_id=live.player_of(n),
                    seat=n,
                    cards=cards(hand.hole_cards(n)),
                )
            )
        self.effects.emit(*new_events(table.table_id, live))
        self._advance()

    def _contributions(self) -> tuple[str, ...]:
        """The contributions to the next deck: the public value (the table's last revealed seed, or its id
        before its first hand), always, so a hand nobody contributed to is dealt as before; then every value
        the players sent since the seed was committed to (docs/fair-deal.md)."""
        table = self.table
        return (table.last_seed or table.table_id, *sorted(table.next_contributions.values()))

    # -------------------------------------------------------------------------------------- player commands

    def act(self, command: contract.PlayerAct) -> None:
        self._open_table()
        live = self.live
        if live is None or live.hand_id != command.hand_id:
            raise Refusal("stale_hand", f"hand {command.hand_id} is not the hand in progress")
        seat = self._seat_of(command.player_id).seat
        if seat not in live.dealt_in:
            raise Refusal("not_dealt_in", "the player is not dealt in this hand")
        if live.hand.to_act != seat:
            raise Refusal("not_your_turn", "it is not this player's turn to act")
        recorded = self._recorded(seat, command)
        turn = live.turn
        try:
            self._apply(recorded)
        except ActionRejected as error:
            raise Refusal(error.code.value, error.message) from None
        if turn is not None and turn.seat == seat:
            self._charge_time(seat, turn.overtime_ms(self.now))
        self._advance()

    def contribute(self, player_id: str, value: str) -> None:
        """A seated player's value for the next hand's deck, whose seed is already committed to; during a hand it
        goes into the following one. A player's later value for the same hand replaces the earlier."""
        table = self._open_table()
        self._seat_of(player_id)
        committed = next_deck_commitment(table)
        if committed is None:
            raise Refusal("no_deck_commitment", "the table has not committed to its next deck yet")
        table.next_contributions[player_id] = value
        self.effects.emit(
            contract.ContributionAccepted(table_id=table.table_id, player_id=player_id, deck_commitment=committed)
        )

    def set_sitting_out(self, player_id: str, sitting_out: bool) -> None:
        self._open_table()
        seat = self._seat_of(player_id)
        if not sitting_out:
            if seat.sit_in():
                self._sitting_out_changed(seat, "requested")
            return
        if seat.sit_out("requested"):
            self._sitting_out_changed(seat, "requested")
            self._release_turn(seat.seat)

    def chat(self, player_id: str, text: str, *, banned: bool) -> None:
        table = self._open_table()
        self._seat_of(player_id)
        if banned:
            raise Refusal("chat_banned", "the player may not chat (a chat ban or a ban is in force, P-12.3)")
        self.effects.emit(contract.ChatPosted(table_id=table.table_id, player_id=player_id, text=text))

    def connection(self, player_id: str, connected: bool, protections_used: int) -> None:
        """The gateway saw the player's connection drop or come back (P-13.2)."""
        self._open_table()
        seat = self._seat_of(player_id)
        if connected:
            if not seat.connected:
                seat.connected = True
                if seat.sit_out_reason == "disconnected" and seat.sit_in():
                    self._sitting_out_changed(seat, "reconnected")
            return
        if not seat.connected:
            return
        seat.connected = False
        if seat.sit_out("disconnected"):
            self._sitting_out_changed(seat, "disconnected")
        live = self.live
        n = seat.seat
        if live is None or n not in live.dealt_in or n in live.hand.folded or not live.hand.stacks[n]:
            return  # not in a hand, or nothing more to decide in it (all-in players stay in anyway)
        protection = protection_for(self.table.policy, protections_used)
        if protection == "all_in_protection" and self._protect_all_in(n):
            return
        if protection == "time_bank":
            self._extend_time(n)
            return
        self._release_turn(n)  # folded, or checked when free, at the player's turn

    # ------------------------------------------------------------------------------------------------ clock

    def clock(self, dealer: Dealer) -> None:
        """The timer: the default action for a player out of time, or the kept hand once its pause is over."""
        if self.live is not None:
            self.expire()
        else:
            self.deal_due(dealer)

    def deal_due(self, dealer: Dealer) -> None:
        """Deal the kept StartHand if its time has come. Seats that cannot make a hand any more (players left
        meanwhile) drop it with the rejection the director would have had for the command."""
        table = self.table
        waiting = table.next_hand
        if waiting is None or self.now < waiting.due_at:
            return
        try:
            self._deal(waiting.hand_no, waiting.level, dealer)
        except Refusal as refusal:
            self._drop_kept_hand()
            self.effects.emit(
                contract.CommandRejected(
                    table_id=table.table_id,
                    command=contract.StartHand.TYPE,
                    code=refusal.code,
                    message=refusal.message,
                )
            )

    def expire(self) -> bool:
        """Apply the default action if the player to act ran out of time (and time bank); True if so."""
        live = self.live
        turn = live.turn if live is not None else None
        if live is None or turn is None or self.now < turn.expires_at:
            return False
        seat = self.table.seats[turn.seat]
        self._charge_time(turn.seat, turn.overtime_ms(self.now))
        live.extra_ms.pop(turn.seat, None)
        self._apply(default_action(live.hand), automatic="timeout")
        if seat.sit_out("timeout"):
            self._sitting_out_changed(seat, "timeout")
        self._advance()
        return True

    def ensure_turn(self) -> None:
        """After the hand was rebuilt from the database: wait again for the player to act."""
        self._advance()

    # -------------------------------------------------------------------------------------------- void hand

    def void(
        self,
        hand_id: str,
        hand_no: int,
        config: HandConfig,
        start_stacks: dict[int, int],
        source: DeckSource | None,
    ) -> None:
        """The hand in progress is void: every stack back at its start-of-hand value (P-10). Its seed is never
        used again: the next hand draws its own."""
        table = self.table
        restored = [
            contract.SeatedPlayer(seat=n, player_id=config.seats[n].player_id, stack=start_stacks[n])
            for n in config.order
        ]
        for player in restored:
            table.seats[player.seat].stack = player.stack  # dealt-in players keep their seats until the hand ends
        self.effects.emit(
            contract.HandVoided(
                table_id=table.table_id,
                tournament_id=table.tournament_id,
                hand_id=hand_id,
                hand_no=hand_no,
                restored=restored,
            )
        )
        self._end_hand(EndedHand(hand_id, "voided", dict(start_stacks), source))

    # --------------------------------------------------------------------------------------- public state

    def public_state(self) -> dict[str, Any] | None:
        """The hand in progress as everyone may see it: no hidden card (P-1.4)."""
        live = self.live
        if live is None:
            return None
        hand = live.hand
        turn = live.turn
        return {
            "hand_id": live.hand_id,
            "hand_no": live.hand_no,
            "street": hand.street.name.lower(),
            "positions": positions_to_json(hand.config.positions),
            "dealt_in": list(live.dealt_in),
            "folded": sorted(hand.folded),
            "all_in_protected": sorted(live.set_aside),
            "board": cards(hand.board),
            "pot": hand.pot_total,
            "bets": {str(n): bet for n, bet in hand.bets.items() if bet},
            "to_act": hand.to_act,
            "deadline": turn.deadline.isoformat() if turn else None,
            "expires_at": turn.expires_at.isoformat() if turn else None,
            "deck_commitment": live.source.commitment if live.source else None,
        }

    def sync_stacks(self) -> None:
        """Seats show the chips behind of a hand in progress (set-aside chips included)."""
        live = self.live
        if live is not None:
            for n in live.dealt_in:
                self.table.seats[n].stack = live.chips_behind(n)

    # ------------------------------------------------------------------------------------------- internals

    def _open_table(self) -> Table:
        if self.table.status == "closed":
            raise Refusal("table_closed", f"table {self.table.table_id} is closed")
        return self.table

    def _seat_of(self, player_id: str) -> Seat:
        seat = self.table.seat_of(player_id)
        if seat is None:
            raise Refusal("not_seated", f"{player_id} has no seat at this table")
        return seat

    def _in_hand(self, seat: int) -> bool:
        return self.live is not None and seat in self.live.dealt_in

    def _positions(self, occupied: dict[int, Seat]) -> tuple[Positions, tuple[int, ...]]:
        if len(occupied) < 2:
            raise InvalidConfiguration(f"a hand needs two players with chips, the table has {len(occupied)}")
        previous = self.table.positions
        if previous is None:
            first = self.table.first_button or 0
            later = [n for n in sorted(occupied) if n >= first]
            button = later[0] if later else min(occupied)
            return initial_positions(list(occupied), button), tuple(sorted(occupied))
        following = next_positions(previous, list(occupied))
        return following.positions, following.dealt_in

    def _recorded(self, seat: int, command: contract.PlayerAct) -> RecordedAction:
        if command.action in _KINDS:
            return RecordedAction(seat, _KINDS[command.action])
        if command.amount is None:
            raise Refusal("invalid_amount", f"a {command.action} needs the amount the bet becomes")
        return RecordedAction(seat, ActionKind(command.action), command.amount)

    def _apply(self, recorded: RecordedAction, automatic: Automatic | None = None) -> None:
        live = self.live
        assert live is not None
        live.hand.act(recorded.seat, recorded.action)  # raises ActionRejected without changing the hand
        live.actions.append(recorded)
        live.turn = None
        flag = (recorded.seat, automatic) if automatic is not None else None
        self.effects.emit(*new_events(self.table.table_id, live, flag))

    def _advance(self) -> None:
        """Play for the players who do not decide (sitting out, disconnected, leaving) until someone must
        decide, then ask them; or complete the hand."""
        live = self.live
        while live is not None and not live.hand.is_complete:
            seat = live.hand.to_act
            assert seat is not None
            if live.turn is not None and live.turn.seat == seat:
                return  # already waiting for this player
            player = self.table.seats[seat]
            if not (player.sitting_out or player.leaving) or (seat in live.extra_ms and not player.leaving):
                self._request(seat)
                return
            why: Automatic = "disconnected" if player.sit_out_reason == "disconnected" else "sitting_out"
            recorded = default_action(live.hand)
            self._apply(recorded, automatic=why)
            if why == "disconnected":
                self._protection_applied(seat, "checked" if recorded.kind is ActionKind.CHECK else "folded")
        if live is not None:
            self._complete(live)

    def _request(self, seat: int) -> None:
        live = self.live
        assert live is not None
        deadline = self.now + timedelta(seconds=self.table.action_seconds)
        pool = self.table.seats[seat].time_bank_ms + live.extra_ms.get(seat, 0)
        live.turn = Turn(seat, self.now, deadline, deadline + timedelta(milliseconds=pool))
        self._announce_turn(live, live.turn)

    def _announce_turn(self, live: LiveHand, turn: Turn) -> None:
        legal = live.hand.legal_actions()
        self.effects.emit(
            contract.ActionRequested(
                table_id=self.table.table_id,
                hand_id=live.hand_id,
                seat=turn.seat,
                player_id=live.player_of(turn.seat),
                deadline=turn.deadline.isoformat(),
                time_bank_seconds=(turn.expires_at - turn.deadline) // timedelta(seconds=1),
                can_check=legal.check,
                call_amount=legal.call or 0,
                min_raise_to=legal.min_raise_to,
                max_raise_to=legal.max_raise_to,
            )
        )

    def _release_turn(self, seat: int) -> None:
        """If `seat` is being waited for, stop waiting: `_advance` then acts for it."""
        live = self.live
        if live is not None and live.turn is not None and live.turn.seat == seat:
            live.turn = None
            self._advance()

    def _charge_time(self, seat: int, used_ms: int) -> None:
        """Time used beyond the action clock: a protection's extra time first, then the time bank."""
        live = self.live
        assert live is not None
        extra = live.extra_ms.get(seat, 0)
        from_extra = min(extra, used_ms)
        if seat in live.extra_ms:
            live.extra_ms[seat] = extra - from_extra
        player = self.table.seats[seat]
        player.time_bank_ms = max(0, player.time_bank_ms - (used_ms - from_extra))

    def _extend_time(self, seat: int) -> None:
        live = self.live
        assert live is not None
        extra = self.table.policy.extra_seconds * 1000
        live.extra_ms[seat] = live.extra_ms.get(seat, 0) + extra
        self.effects.protections_used.append(live.player_of(seat))
        self._protection_applied(seat, "time_extended")
        turn = live.turn
        if turn is not None and turn.seat == seat:
            turn.expires_at += timedelta(milliseconds=extra)
            self._announce_turn(live, turn)

    def _protect_all_in(self, seat: int) -> bool:
        live = self.live
        assert live is not None
        protected = protect_all_in(live.hand, live.actions, seat)
        if protected is None:
            return False
        before = live.hand
        live.hand, live.actions = protected.hand, protected.actions
        live.set_aside[seat] = live.set_aside.get(seat, 0) + protected.set_aside
        live.stacks[seat] -= protected.set_aside
        self.effects.protections_used.append(live.player_of(seat))
        self._protection_applied(seat, "all_in_protected")
        # Report the difference: bets nobody can answer any more go back, and the board may have run out.
        paid_before, paid_after = chips_paid(before.events), chips_paid(protected.hand.events)
        table_id = self.table.table_id
        for n in live.dealt_in:
            back = paid_before.get(n, 0) - paid_after.get(n, 0)
            if back > 0:
                self.effects.emit(returned(table_id, live, n, back))
        dealt = len(before.board)
        for event in protected.hand.events:
            if isinstance(event, StreetDealt) and len(event.board) > dealt:
                self.effects.emit(street_dealt(table_id, live.hand_id, event))
        live.published = len(protected.hand.events)
        if live.turn is not None and live.turn.seat != protected.hand.to_act:
            live.turn = None
        self._advance()
        return True

    def _protection_applied(
        self, seat: int, outcome: Literal["folded", "checked", "time_extended", "all_in_protected"]
    ) -> None:
        live = self.live
        assert live is not None
        self.effects.emit(
            contract.PlayerProtectionApplied(
                table_id=self.table.table_id, hand_id=live.hand_id, player_id=live.player_of(seat), outcome=outcome
            )
        )

    def _sitting_out_changed(
        self, seat: Seat, reason: Literal["requested", "timeout", "disconnected", "reconnected"]
    ) -> None:
        self.effects.emit(
            contract.SittingOutChanged(
                table_id=self.table.table_id,
                player_id=seat.player_id,
                seat=seat.seat,
                sitting_out=seat.sitting_out,
                reason=reason,
            )
        )

    def _complete(self, live: LiveHand) -> None:
        table = self.table
        positions = live.hand.config.positions
        events, end = completion_events(table.table_id, table.tournament_id, live, positions.button)
        self.effects.emit(*events)
        for n, stack in end.items():
            table.seats[n].stack = stack
        table.positions = positions
        self._end_hand(EndedHand(live.hand_id, "completed", end, live.source))

    def _end_hand(self, ended: EndedHand) -> None:
        """Between hands again: deferred chips and unseats apply now, and the pause before the next hand runs."""
        self.table.current_hand_id = None
        self.table.hand_ended_at = self.now
        if ended.source is not None:
            self.table.last_seed = ended.source.seed.hex()
        self.live = None
        self.ended = ended
        self._credit_pending_chips()
        for seat in list(self.table.seats.values()):
            if seat.leaving is not None:
                self._unseat(seat, seat.leaving)

    def _drop_kept_hand(self) -> None:
        """The kept StartHand will not be dealt: chips bought while it waited are the players' at once."""
        if self.table.next_hand is not None:
            self.table.next_hand = None
            self._credit_pending_chips()

    def _credit_pending_chips(self) -> None:
        for seat in self.table.seats.values():
            seat.stack += seat.pending_chips
            seat.pending_chips = 0

    def _unseat(self, seat: Seat, reason: str) -> None:
        del self.table.seats[seat.seat]
        self.effects.emit(
            contract.PlayerUnseated(
                table_id=self.table.table_id,
                tournament_id=self.table.tournament_id,
                player_id=seat.player_id,
                reason=reason,
            )
        )
