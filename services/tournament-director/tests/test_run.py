"""TournamentRun with scripted hands: the director's orchestration rules, one at a time (P-2, P-4, P-5–P-7, P-10,
P-12). The `Dealer` below plays the table engine's part; each test decides who wins and who busts."""

from __future__ import annotations

import json
import random
from collections.abc import Mapping, Sequence
from dataclasses import fields
from datetime import UTC, datetime, timedelta

import pytest
from platform_kit.events.table import (
    AddChips,
    CloseTable,
    HandCompleted,
    Level,
    OpenTable,
    PotResult,
    SeatedPlayer,
    SeatPlayer,
    SeatResult,
    ShownHand,
    StartHand,
    UnseatPlayer,
)
from platform_kit.events.tournament import (
    AddonOffered,
    FinalTableStarted,
    HandForHandChanged,
    JackpotQualified,
    LevelChanged,
    PlayerEliminated,
    PlayerMoved,
    ShootoutPhaseStarted,
    TableBroken,
    TableHeld,
    TournamentCancelled,
    TournamentFinished,
    TournamentPaused,
    TournamentResumed,
    TournamentStarted,
)
from tournament_director.domain.definition import (
    PayoutBracket,
    PayoutSettings,
    TableSettings,
    TournamentDefinition,
    revise,
)
from tournament_director.domain.entries import EntryKind, Price
from tournament_director.domain.jackpots import JackpotProgramme, LostShowdownCondition
from tournament_director.domain.kinds import RebuyEligibility
from tournament_director.domain.payouts import PayoutSchedule, payout_amounts
from tournament_director.domain.ranking import Bust
from tournament_director.domain.rebuy_addon import PurchaseRefusal
from tournament_director.domain.run import RunError, TournamentRun
from tournament_director.domain.run_messages import Message, OfferRebuy
from tournament_director.domain.run_state import (
    PendingBust,
    RunState,
    SnapshotWriter,
    TablePlay,
    TableStatus,
    state_to_json,
)
from tournament_director.domain.templates import (
    freeroll,
    nine_max_sit_and_go,
    rebuy_mtt,
    scheduled_mtt,
    shootout_sit_and_go,
)

NOW = datetime(2025, 3, 1, 20, 0, tzinfo=UTC)
PRICE = Price(prize_part_cents=900, fee_cents=100)
#: 22.50 + 2.50: room for three rebuys and an add-on under the €100 caps (P-4.5).
REBUY_PRICE = Price(prize_part_cents=2_250, fee_cents=250)


def players(count: int) -> list[str]:
    return [f"p{number:02d}" for number in range(1, count + 1)]


def level(small_blind: int, big_blind: int, ante: int) -> Level:
    return Level(small_blind=small_blind, big_blind=big_blind, ante=ante)


def level_changed(
    level_no: int, small_blind: int, big_blind: int, ante: int, ends_at: datetime, *, on_break: bool = False
) -> LevelChanged:
    return LevelChanged(
        tournament_id="t",
        level_no=level_no,
        small_blind=small_blind,
        big_blind=big_blind,
        ante=ante,
        ends_at=ends_at.isoformat(),
        on_break=on_break,
    )


def of_type(messages: Sequence[Message], kind: type) -> list:
    return [message for message in messages if isinstance(message, kind)]


class Dealer:
    """The table engine's part, scripted: each completed hand moves chips as the test says."""

    def __init__(self, definition: TournamentDefinition, count: int, seed: int = 1, **start: object) -> None:
        self.now = NOW
        self.rng = random.Random(seed)
        self.run, messages = TournamentRun.start(
            "t",
            definition,
            players(count),
            self.rng,
            self.now,
            currency="EUR",
            **start,  # type: ignore[arg-type]
        )
        self.messages: list[Message] = []
        #: Hands in progress: table -> (hand number, the players dealt in).
        self.hands: dict[str, tuple[int, tuple[SeatedPlayer, ...]]] = {}
        self.take(messages)

    def take(self, messages: Sequence[Message]) -> list[Message]:
        self.messages.extend(messages)
        tables = self.run.tables()
        for message in messages:
            if isinstance(message, StartHand):
                self.hands[message.table_id] = (message.hand_no, tables[message.table_id])
            elif isinstance(message, CloseTable):
                self.hands.pop(message.table_id, None)
        return list(messages)

    def fact(
        self,
        table: str,
        moves: Mapping[str, int] | None = None,
        *,
        button: int | None = None,
        shown: Sequence[ShownHand] = (),
        pots: Sequence[PotResult] = (),
    ) -> HandCompleted:
        """The hand in progress at `table`: each player's stack changes by `moves` (zero-sum)."""
        hand_no, dealt = self.hands.pop(table)
        moves = moves or {}
        results = [
            SeatResult(
                seat=seated.seat,
                player_id=seated.player_id,
                start_stack=seated.stack,
                end_stack=seated.stack + moves.get(seated.player_id, 0),
            )
            for seated in dealt
        ]
        return HandCompleted(
            table_id=table,
            tournament_id="t",
            hand_id=f"{table}#{hand_no}",
            hand_no=hand_no,
            button_seat=dealt[0].seat if button is None else button,
            board=[],
            results=results,
            pots=list(pots),
            shown=list(shown),
            busted_player_ids=[result.player_id for result in results if result.end_stack == 0],
        )

    def complete(self, table: str, moves: Mapping[str, int] | None = None, **fact: object) -> list[Message]:
        return self.take(self.run.on_hand_completed(self.fact(table, moves, **fact), self.now))  # type: ignore[arg-type]

    def complete_all(self, moves: Mapping[str, Mapping[str, int]] | None = None) -> list[Message]:
        """Every table in a hand completes it at the same moment."""
        facts = [self.fact(table, (moves or {}).get(table)) for table in sorted(self.hands)]
        return self.take(self.run.on_hands_completed(facts, self.now))

    def busting(self, table: str, losers: Sequence[str], winner: str) -> dict[str, int]:
        """Moves in which `losers` lose every chip they started the hand with to `winner`."""
        _, dealt = self.hands[table]
        stacks = {seated.player_id: seated.stack for seated in dealt}
        return {**{loser: -stacks[loser] for loser in losers}, winner: sum(stacks[loser] for loser in losers)}

    def dealt(self, table: str) -> tuple[SeatedPlayer, ...]:
        return self.hands[table][1]

    def tick(self, minutes: float) -> list[Message]:
        self.now += timedelta(minutes=minutes)
        return self.take(self.run.on_clock(self.now))


def sit_and_go_9() -> TournamentDefinition:
    return nine_max_sit_and_go("nine", PRICE)


def scheduled_30() -> TournamentDefinition:
    return scheduled_mtt("thirty", PRICE, max_players=30)


# ---- start (P-5.1, P-6.1, P-3.2) ----------------------------------------------------------------------------


def test_p5_1_p6_1_start_seats_everyone_on_the_fewest_tables_and_deals_level_1() -> None:
    dealer = Dealer(scheduled_30(), 30)
    started = of_type(dealer.messages, TournamentStarted)
    opened = of_type(dealer.messages, OpenTable)
    assert started == [TournamentStarted(tournament_id="t", players=30, tables=[table.table_id for table in opened])]
    assert sorted(len(table.seats) for table in opened) == [7, 7, 8, 8]
    assert sorted(seated.player_id for table in opened for seated in table.seats) == players(30)
    assert {seated.stack for table in opened for seated in table.seats} == {3_000}
    assert of_type(dealer.messages, LevelChanged) == [level_changed(1, 10, 20, 0, NOW + timedelta(minutes=10))]
    assert {(start.table_id, start.hand_no, start.level) for start in of_type(dealer.messages, StartHand)} == {
        (table.table_id, 1, level(10, 20, 0)) for table in opened
    }


def test_p3_2_a_field_outside_the_minimum_and_maximum_does_not_start() -> None:
    with pytest.raises(RunError, match=r"P-3\.2"):
        TournamentRun.start("t", scheduled_30(), players(9), random.Random(1), NOW, currency="EUR")
    with pytest.raises(RunError, match=r"P-3\.2"):
        TournamentRun.start("t", scheduled_30(), players(31), random.Random(1), NOW, currency="EUR")


# ---- eliminations and ranking (P-2.1–P-2.3) -------------------------------------------------------------------


def test_p2_1_p2_2_players_busting_in_one_hand_rank_by_their_chips_at_its_start() -> None:
    dealer = Dealer(sit_and_go_9(), 9)
    (table,) = dealer.hands
    a, b, c = (seated.player_id for seated in dealer.dealt(table)[:3])
    dealer.complete(table, {a: 500, b: -500})  # a: 2,000, b: 1,000
    eliminated = of_type(dealer.complete(table, dealer.busting(table, [a, b], c)), PlayerEliminated)
    assert [(message.player_id, message.position) for message in eliminated] == [(a, 8), (b, 9)]
    assert {message.hand_id for message in eliminated} == {f"{table}#2"}


def test_p2_3_equal_stacks_rank_by_distance_from_the_button() -> None:
    dealer = Dealer(sit_and_go_9(), 9)
    (table,) = dealer.hands
    seats = {seated.player_id: seated.seat for seated in dealer.dealt(table)}
    first, second, third = sorted(seats, key=seats.get)[:3]  # type: ignore[arg-type]
    # The button on `second`'s seat: `second` ranks above `third` (one seat left of the button) above `first`.
    moves = dealer.busting(table, [first, second, third], sorted(seats, key=seats.get)[3])  # type: ignore[arg-type]
    eliminated = of_type(dealer.complete(table, moves, button=seats[second]), PlayerEliminated)
    assert [(message.player_id, message.position) for message in eliminated] == [(second, 7), (third, 8), (first, 9)]


def test_p2_1_the_last_player_with_chips_wins_and_the_run_finishes() -> None:
    dealer = Dealer(nine_max_sit_and_go("nine", PRICE), 9)
    (table,) = dealer.hands
    everyone = [seated.player_id for seated in dealer.dealt(table)]
    messages = dealer.complete(table, dealer.busting(table, everyone[1:], everyone[0]))
    (finished,) = of_type(messages, TournamentFinished)
    assert dealer.run.is_over and of_type(messages, CloseTable) == [CloseTable(table_id=table, reason="finished")]
    assert finished.ranking[0].player_id == everyone[0] and finished.prize_pool_cents == 9 * 900
    # P-8.4 small fields: 65/35.
    assert [ranked.prize_cents for ranked in finished.ranking[:3]] == [5_265, 2_835, 0]
    with pytest.raises(RunError, match="over"):
        dealer.run.disqualify(everyone[0], NOW)


# ---- tables (P-6) ---------------------------------------------------------------------------------------------


def test_p6_2_a_table_no_longer_needed_is_broken_and_its_players_carry_their_stacks() -> None:
    dealer = Dealer(scheduled_30(), 30)
    table = next(table for table in sorted(dealer.hands) if len(dealer.dealt(table)) == 7)
    dealt = [seated.player_id for seated in dealer.dealt(table)]
    moves = dealer.busting(table, dealt[:3], dealt[3])
    messages = dealer.complete(table, moves)  # 27 players fit three tables of nine
    assert of_type(messages, TableBroken) == [TableBroken(tournament_id="t", table_id=table)]
    moved = of_type(messages, PlayerMoved)
    assert sorted(move.player_id for move in moved) == sorted(dealt[3:])
    assert {move.reason for move in moved} == {"table_broken"}
    seats = {message.player.player_id: message.player.stack for message in of_type(messages, SeatPlayer)}
    assert seats == {player: 3_000 for player in dealt[4:]} | {dealt[3]: 12_000}
    assert sorted(dealer.run.table_sizes().values()) == [9, 9, 9]


def test_p6_3_balancing_moves_a_player_from_the_largest_table_to_the_smallest() -> None:
    dealer = Dealer(scheduled_30(), 30)
    small = next(table for table in sorted(dealer.hands) if len(dealer.dealt(table)) == 7)
    dealt = [seated.player_id for seated in dealer.dealt(small)]
    dealer.complete(small, dealer.busting(small, dealt[:2], dealt[2]))  # 28 players still need four tables
    assert dealer.run.table_sizes()[small] == 5 and dealer.run.size_gap() == 3
    large = next(table for table in sorted(dealer.hands) if len(dealer.dealt(table)) == 8)
    messages = dealer.complete(large)
    moves = of_type(messages, PlayerMoved)
    assert len(moves) == 1 and moves[0].reason == "balancing" and moves[0].to_table_id == small
    assert of_type(messages, UnseatPlayer) == [
        UnseatPlayer(table_id=large, player_id=moves[0].player_id, reason="moved")
    ]
    assert dealer.run.table_sizes()[large] == 7


def test_p6_3_tables_between_hands_together_end_within_one_player() -> None:
    dealer = Dealer(scheduled_30(), 30)
    small = next(table for table in sorted(dealer.hands) if len(dealer.dealt(table)) == 7)
    dealt = [seated.player_id for seated in dealer.dealt(small)]
    dealer.complete_all({small: dealer.busting(small, dealt[:2], dealt[2])})
    assert dealer.run.size_gap() <= 1
    assert len(of_type(dealer.messages, StartHand)) == 8  # every table dealt again


def _bubble_definition() -> TournamentDefinition:
    """Three-seat tables paying four places: the bubble (five players) spreads over two tables."""
    schedule = PayoutSchedule(shares_bps=(4_000, 3_000, 2_000, 1_000))
    return revise(
        scheduled_mtt("bubble", PRICE, max_players=12),
        tables=TableSettings(seats_per_table=3),
        payouts=PayoutSettings(brackets=(PayoutBracket(min_entrants=10, max_entrants=12, schedule=schedule),)),
    )


def _down_to(dealer: Dealer, players_left: int) -> None:
    """Bust one player at a time (never the bubble: the count goes down by one per hand)."""
    while len(dealer.run.players_left) > players_left:
        table = next(table for table in sorted(dealer.hands) if len(dealer.dealt(table)) >= 2)
        dealt = dealer.dealt(table)
        dealer.complete(table, dealer.busting(table, [dealt[0].player_id], dealt[1].player_id))
        for other in sorted(dealer.hands):
            if len(dealer.run.players_left) > players_left and other != table and not dealer.run.hand_for_hand:
                dealer.complete(other)


def test_p6_6_on_the_bubble_every_table_plays_one_hand_and_waits_for_the_others() -> None:
    dealer = Dealer(_bubble_definition(), 12)
    _down_to(dealer, 5)
    assert dealer.run.hand_for_hand and HandForHandChanged(tournament_id="t", on=True) in dealer.messages
    for table in sorted(dealer.hands):  # hands started before hand-for-hand finish first
        dealer.complete(table)
    assert sorted(dealer.run.table_sizes().values()) == [2, 3]
    first, second = sorted(dealer.hands)
    assert of_type(dealer.complete(first), StartHand) == []  # waits for the other table
    started = of_type(dealer.complete(second), StartHand)
    assert sorted(start.table_id for start in started) == [first, second]


def test_p2_4_busts_of_one_hand_for_hand_round_tie_and_share_their_prizes() -> None:
    dealer = Dealer(_bubble_definition(), 12)
    _down_to(dealer, 5)
    for table in sorted(dealer.hands):
        dealer.complete(table)
    first, second = sorted(dealer.hands)
    # One round to give a victim at each table 1,000 chips, in seat 1 of its table…
    victims = {}
    for table in (first, second):
        dealt = dealer.dealt(table)
        victim, other = dealt[0], dealt[1]
        victims[table] = victim
        dealer.complete(table, {victim.player_id: 1_000 - victim.stack, other.player_id: victim.stack - 1_000})
    # …then both bust in the next round, each one seat left of the button: a tie (P-2.2 and P-2.3 both equal).
    eliminated = []
    for table in (first, second):
        victim = next(seated for seated in dealer.dealt(table) if seated.player_id == victims[table].player_id)
        winner = next(seated for seated in dealer.dealt(table) if seated.player_id != victim.player_id)
        button = 3 if victim.seat == 1 else victim.seat - 1
        messages = dealer.complete(table, dealer.busting(table, [victim.player_id], winner.player_id), button=button)
        eliminated.append(of_type(messages, PlayerEliminated))
    assert eliminated[0] == []  # recorded when the round is over
    eliminated = eliminated[1]
    fourth_prize = payout_amounts(12 * 900, PayoutSchedule(shares_bps=(4_000, 3_000, 2_000, 1_000)))[3]
    assert sorted(message.player_id for message in eliminated) == sorted(v.player_id for v in victims.values())
    assert {(message.position, message.prize_cents) for message in eliminated} == {(4, fourth_prize // 2)}
    assert HandForHandChanged(tournament_id="t", on=False) in dealer.messages


# ---- the blind clock (P-7) ------------------------------------------------------------------------------------


def test_p7_1_the_level_changes_on_the_clock_and_a_hand_in_progress_finishes_at_the_old_level() -> None:
    dealer = Dealer(scheduled_30(), 30)
    assert dealer.run.next_clock_change() == NOW + timedelta(minutes=10)
    assert dealer.tick(10) == [level_changed(2, 15, 30, 0, NOW + timedelta(minutes=20))]
    table = sorted(dealer.hands)[0]
    (start,) = of_type(dealer.complete(table), StartHand)
    assert start.level == level(15, 30, 0) and start.hand_no == 2


def test_p7_2_no_hand_starts_during_a_break_and_play_resumes_after_it() -> None:
    dealer = Dealer(scheduled_30(), 30)
    assert dealer.tick(60)[-1] == level_changed(6, 100, 200, 25, NOW + timedelta(minutes=65), on_break=True)
    assert of_type(dealer.complete_all(), StartHand) == []
    messages = dealer.tick(5)
    assert messages[0] == level_changed(7, 150, 300, 25, NOW + timedelta(minutes=75))
    assert {start.level for start in of_type(messages, StartHand)} == {level(150, 300, 25)}
    assert len(of_type(messages, StartHand)) == 4


def test_a_pause_stops_the_clock_and_the_dealing_and_a_resumption_goes_on_where_it_stopped() -> None:
    """A technical problem (issue 17): hands in progress finish, no new one is dealt and the level keeps the
    time it had left; after the resumption the waiting tables deal at the same level, the clock shifted."""
    dealer = Dealer(scheduled_30(), 30)
    dealer.now += timedelta(minutes=4)
    assert dealer.take(dealer.run.pause(dealer.now, "database failover")) == [
        TournamentPaused(tournament_id="t", reason="database failover")
    ]
    assert dealer.run.paused_at == dealer.now and dealer.run.next_clock_change() is None
    assert of_type(dealer.complete_all(), StartHand) == []  # the hands in progress finish; none follows
    assert dealer.tick(30) == []  # 30 minutes paused: no level change
    with pytest.raises(RunError):
        dealer.run.pause(dealer.now, "again")
    messages = dealer.take(dealer.run.resume(dealer.now))
    ends_at = (dealer.now + timedelta(minutes=6)).isoformat()
    assert messages[0] == TournamentResumed(tournament_id="t", paused_seconds=30 * 60, level_ends_at=ends_at)
    assert {start.level for start in of_type(messages, StartHand)} == {level(10, 20, 0)}  # still level 1
    assert len(of_type(messages, StartHand)) == 4
    assert dealer.run.next_clock_change() == NOW + timedelta(minutes=40)  # the level's 6 minutes left, after it
    restored = TournamentRun.restore(dealer.run.to_json(), random.Random(0))
    assert restored.next_clock_change() == dealer.run.next_clock_change() and restored.paused_at is None
    with pytest.raises(RunError):
        dealer.run.resume(dealer.now)


# ---- rebuys and add-ons (P-4) ---------------------------------------------------------------------------------


def _rebuy_dealer() -> tuple[Dealer, str, list[str]]:
    dealer = Dealer(rebuy_mtt("rebuys", REBUY_PRICE, max_players=10), 10)
    table = sorted(dealer.hands)[0]
    return dealer, table, [seated.player_id for seated in dealer.dealt(table)]


def test_p4_2_a_player_busted_in_the_rebuy_period_is_offered_a_rebuy_and_the_table_waits() -> None:
    dealer, table, dealt = _rebuy_dealer()
    messages = dealer.complete(table, dealer.busting(table, [dealt[0]], dealt[1]))
    assert of_type(messages, OfferRebuy) == [OfferRebuy("t", table, dealt[0], 3_000, 2_500)]
    assert of_type(messages, PlayerEliminated) == [] and table not in dealer.hands
    assert dealer.run.rebuy_refusal(dealt[0], dealer.now) is None
    messages = dealer.take(dealer.run.rebuy(dealt[0], dealer.now))
    assert of_type(messages, AddChips) == [AddChips(table_id=table, player_id=dealt[0], amount=3_000, reason="rebuy")]
    assert [start.table_id for start in of_type(messages, StartHand)] == [table]
    assert dealer.run.chips[dealt[0]] == 3_000
    # P-4.4, P-8.2: the rebuy's prize part goes to the prize pool.
    assert dealer.run.prize_pool().pool_cents == 11 * 2_250


def test_p4_2_a_declined_rebuy_eliminates_the_player() -> None:
    dealer, table, dealt = _rebuy_dealer()
    dealer.complete(table, dealer.busting(table, [dealt[0]], dealt[1]))
    messages = dealer.take(dealer.run.decline_rebuy(dealt[0], dealer.now))
    assert of_type(messages, PlayerEliminated) == [
        PlayerEliminated(tournament_id="t", player_id=dealt[0], position=10, prize_cents=0, hand_id=f"{table}#1")
    ]
    assert UnseatPlayer(table_id=table, player_id=dealt[0], reason="busted") in messages
    with pytest.raises(RunError):
        dealer.run.rebuy(dealt[0], dealer.now)


def test_p4_2_after_the_rebuy_period_a_bust_is_final() -> None:
    dealer, table, dealt = _rebuy_dealer()
    dealer.tick(65)  # the break after level 6: the period covers hands dealt at levels 1..6
    dealer.tick(5)
    dealer.complete_all()
    table = sorted(dealer.hands)[0]
    dealt = [seated.player_id for seated in dealer.dealt(table)]
    messages = dealer.complete(table, dealer.busting(table, [dealt[0]], dealt[1]))
    assert of_type(messages, OfferRebuy) == []
    assert [message.player_id for message in of_type(messages, PlayerEliminated)] == [dealt[0]]


def test_p4_2_no_offer_once_the_rebuys_are_used_up() -> None:
    dealer, table, dealt = _rebuy_dealer()
    for _ in range(3):
        dealer.complete(table, dealer.busting(table, [dealt[0]], dealt[1]))
        dealer.take(dealer.run.rebuy(dealt[0], dealer.now))
    messages = dealer.complete(table, dealer.busting(table, [dealt[0]], dealt[1]))
    assert of_type(messages, OfferRebuy) == [] and len(of_type(messages, PlayerEliminated)) == 1


def test_p4_3_p7_2_the_addon_is_offered_at_its_break_once_per_player() -> None:
    dealer, table, dealt = _rebuy_dealer()
    assert dealer.run.addon_refusal(dealt[0], dealer.now) is PurchaseRefusal.NOT_AN_ADDON_MOMENT
    messages = dealer.tick(60)
    assert sorted(offer.player_id for offer in of_type(messages, AddonOffered)) == players(10)
    bought = dealer.take(dealer.run.addon(dealt[0], dealer.now))
    assert of_type(bought, AddChips) == [AddChips(table_id=table, player_id=dealt[0], amount=3_000, reason="addon")]
    with pytest.raises(RunError, match="already_bought_at_this_moment"):
        dealer.run.addon(dealt[0], dealer.now)
    # Bought while the hand was being played: credited when it completes.
    dealer.complete(table, {dealt[0]: -1_000, dealt[1]: 1_000})
    assert dealer.run.chips[dealt[0]] == 3_000 - 1_000 + 3_000
    assert dealer.run.prize_pool().pool_cents == 11 * 2_250


# ---- sanctions (P-12) -----------------------------------------------------------------------------------------


def test_p12_5_a_player_disqualified_mid_hand_leaves_with_their_chips_and_ranks_last() -> None:
    dealer = Dealer(sit_and_go_9(), 9)
    (table,) = dealer.hands
    dealt = [seated.player_id for seated in dealer.dealt(table)]
    assert dealer.take(dealer.run.disqualify(dealt[0], dealer.now)) == []  # the hand goes on
    messages = dealer.complete(table, {dealt[0]: 500, dealt[1]: -500})
    assert UnseatPlayer(table_id=table, player_id=dealt[0], reason="disqualified") in messages
    assert dealer.run.chips_removed == 2_000 and dealt[0] not in dealer.run.players_left
    everyone = [seated.player_id for seated in dealer.dealt(table)]
    messages = dealer.complete(table, dealer.busting(table, everyone[1:], everyone[0]))
    (finished,) = of_type(messages, TournamentFinished)
    assert finished.ranking[-1].player_id == dealt[0] and finished.ranking[-1].disqualified


def test_p12_3_a_ranking_penalty_moves_the_player_down_in_the_final_ranking() -> None:
    dealer = Dealer(sit_and_go_9(), 9)
    (table,) = dealer.hands
    dealt = [seated.player_id for seated in dealer.dealt(table)]
    dealer.run.penalize(dealt[0], 1)
    dealer.complete(table, dealer.busting(table, dealt[1:8], dealt[0]))
    dealer.complete(table, dealer.busting(table, [dealt[8]], dealt[0]))
    (finished,) = of_type(dealer.messages, TournamentFinished)
    assert [ranked.player_id for ranked in finished.ranking[:2]] == [dealt[8], dealt[0]]


# ---- cancellation (P-10) --------------------------------------------------------------------------------------


def test_p10_cancellation_counts_the_state_after_the_last_completed_hand() -> None:
    dealer = Dealer(scheduled_30(), 30)
    tables = sorted(dealer.hands)
    dealt = [seated.player_id for seated in dealer.dealt(tables[0])]
    dealer.complete(tables[0], dealer.busting(tables[0], dealt[:2], dealt[2]))  # 28 left, 6,000 for dealt[2]
    before = dealer.run.to_json()
    preview = dealer.run.cancellation_preview(dealer.now)
    assert dealer.run.to_json() == before and not dealer.run.is_over  # the preview changes nothing
    cancellation = dealer.run.cancel(dealer.now, "database lost")  # the other tables' hands are void
    assert preview.settlement == cancellation.settlement  # the console's preview is the cancellation's calculation
    case = cancellation.case
    assert sorted(case.chips) == sorted(dealer.run.players_left) and case.chips[dealt[2]] == 9_000
    assert sum(case.chips.values()) == 30 * 3_000
    assert [group.first_position for group in case.eliminated] == [29, 30]
    assert cancellation.settlement.rule == "P-10.7"
    (cancelled,) = of_type(cancellation.messages, TournamentCancelled)
    assert len(cancelled.refunds) == 28 and len(of_type(cancellation.messages, CloseTable)) == 4
    assert dealer.run.is_over
    with pytest.raises(RunError):
        dealer.run.on_hand_completed(dealer.fact(tables[1]), dealer.now)


def test_p10_2_open_rebuy_offers_count_as_declined_when_cancelling() -> None:
    dealer, table, dealt = _rebuy_dealer()
    dealer.complete(table, dealer.busting(table, [dealt[0]], dealt[1]))
    cancellation = dealer.run.cancel(dealer.now, "outage")
    assert [group.players for group in cancellation.case.eliminated] == [(dealt[0],)]
    assert cancellation.case.rebuys_or_addons_open and cancellation.settlement.rule == "P-10.7"
    assert cancellation.settlement.residual_prize_pool_cents == 2_250  # the eliminated player's prize part


# ---- prize pool and jackpots (P-8) ----------------------------------------------------------------------------


def test_p8_3_p11_1_a_guarantee_tops_up_the_pool_and_rating_sees_the_collected_part() -> None:
    dealer = Dealer(scheduled_mtt("guaranteed", PRICE, max_players=10, guarantee_cents=50_000), 10)
    for table in sorted(dealer.hands):
        dealt = [seated.player_id for seated in dealer.dealt(table)]
        dealer.complete(table, dealer.busting(table, dealt[1:], dealt[0]))
    table = sorted(dealer.hands)[0]
    dealt = [seated.player_id for seated in dealer.dealt(table)]
    dealer.complete(table, dealer.busting(table, dealt[1:], dealt[0]))
    (finished,) = of_type(dealer.messages, TournamentFinished)
    assert (finished.prize_pool_cents, finished.prize_pool_from_entries_cents) == (50_000, 9_000)
    assert finished.guarantee_overlay_cents == 41_000
    assert sum(ranked.prize_cents for ranked in finished.ranking) == 50_000


def test_p8_6_losing_a_showdown_with_four_of_a_kind_qualifies_for_the_jackpot() -> None:
    programme = JackpotProgramme(programme_id="bad-beat", fee_share_bps=500, condition=LostShowdownCondition())
    dealer = Dealer(sit_and_go_9(), 9, jackpot_programmes=[programme])
    (table,) = dealer.hands
    loser, winner = dealer.dealt(table)[:2]
    shown = [
        ShownHand(seat=loser.seat, player_id=loser.player_id, cards=["As", "Ad"], category="four_of_a_kind"),
        ShownHand(seat=winner.seat, player_id=winner.player_id, cards=["Kh", "Qh"], category="straight_flush"),
    ]
    pot = PotResult(amount=200, eligible_seats=[loser.seat, winner.seat], winner_seats=[winner.seat], shares=[200])
    fact = dealer.fact(table, {loser.player_id: -100, winner.player_id: 100}, shown=shown, pots=[pot])
    messages = dealer.run.on_hand_completed(fact, dealer.now)
    assert of_type(messages, JackpotQualified) == [
        JackpotQualified(tournament_id="t", programme_id="bad-beat", player_id=loser.player_id, hand_id=fact.hand_id)
    ]


# ---- facts out of order ---------------------------------------------------------------------------------------


def test_a_fact_the_run_did_not_ask_for_is_refused() -> None:
    dealer = Dealer(sit_and_go_9(), 9)
    (table,) = dealer.hands
    fact = dealer.fact(table)
    with pytest.raises(RunError, match="not open"):
        dealer.run.on_hand_completed(fact.model_copy(update={"table_id": "t.1.9"}), NOW)
    with pytest.raises(RunError, match="do not add up"):
        first = fact.results[0]
        unbalanced = [first.model_copy(update={"end_stack": 0}), *fact.results[1:]]
        dealer.run.on_hand_completed(fact.model_copy(update={"results": unbalanced}), NOW)
    dealer.run.on_hand_completed(fact, NOW)
    with pytest.raises(RunError, match="no hand 1 in progress"):
        dealer.run.on_hand_completed(fact, NOW)
    with pytest.raises(RunError, match="time went back"):
        dealer.run.on_clock(NOW - timedelta(seconds=1))


# ---- persistence ----------------------------------------------------------------------------------------------


def test_a_restored_run_goes_on_exactly_like_the_original() -> None:
    dealer, table, dealt = _rebuy_dealer()
    dealer.complete(table, dealer.busting(table, [dealt[0]], dealt[1]))  # a rebuy offer pending
    dealer.tick(20)
    saved = json.loads(json.dumps(dealer.run.to_json()))
    twin_rng = random.Random()
    twin_rng.setstate(dealer.rng.getstate())
    twin = TournamentRun.restore(saved, twin_rng)
    assert twin.to_json() == saved
    other = sorted(dealer.hands)[0]
    fact = dealer.fact(
        other, dealer.busting(other, [dealer.dealt(other)[0].player_id], dealer.dealt(other)[1].player_id)
    )
    assert twin.on_hand_completed(fact, dealer.now) == dealer.run.on_hand_completed(fact, dealer.now)
    assert twin.decline_rebuy(dealt[0], dealer.now) == dealer.run.decline_rebuy(dealt[0], dealer.now)
    assert twin.to_json() == dealer.run.to_json()


def test_p4_4_the_snapshot_saved_after_each_call_holds_every_rebuy_and_addon_bought() -> None:
    """`snapshot()` keeps its entrants' part encoded between calls: a purchase, which changes it, must show in
    the very next snapshot, and a restore from that text must go on from the state as it is."""
    dealer, table, dealt = _rebuy_dealer()

    def saved() -> dict[str, object]:
        text = dealer.run.snapshot()
        assert json.loads(text) == dealer.run.to_json()
        return json.loads(text)

    assert saved()["purchases"][dealt[0]] == [0, []]  # type: ignore[index]
    dealer.complete(table, dealer.busting(table, [dealt[0]], dealt[1]))
    saved()
    dealer.take(dealer.run.rebuy(dealt[0], dealer.now))
    assert saved()["purchases"][dealt[0]] == [1, []]  # type: ignore[index]
    dealer.tick(60)
    dealer.take(dealer.run.addon(dealt[1], dealer.now))
    after = saved()
    assert after["purchases"][dealt[1]] == [0, [6]]  # type: ignore[index]
    assert [entry[0] for entry in after["entries"][dealt[1]]] == ["buy_in", "addon"]  # type: ignore[index]
    restored = TournamentRun.restore(after, random.Random(0))
    assert restored.prize_pool() == dealer.run.prize_pool() and restored.snapshot() == dealer.run.snapshot()


def test_p4_4_p12_the_snapshot_after_each_call_is_the_state_as_it_stands() -> None:
    """`snapshot()` encodes again only what changed since the previous one: after hands, a rebuy and an add-on
    (the entrants' records), a disqualification and a penalty (the log), it still reads back as `to_json()`."""
    dealer, table, dealt = _rebuy_dealer()

    def saved() -> dict:
        snapshot = json.loads(dealer.run.snapshot())
        assert snapshot == dealer.run.to_json()
        return snapshot

    assert saved()["purchases"][dealt[0]] == [0, []]
    dealer.complete(table, dealer.busting(table, [dealt[0]], dealt[1]))
    saved()
    dealer.take(dealer.run.rebuy(dealt[0], dealer.now))
    assert saved()["purchases"][dealt[0]] == [1, []]
    dealer.tick(60)  # the add-on break
    dealer.take(dealer.run.addon(dealt[1], dealer.now))
    bought = saved()
    assert bought["purchases"][dealt[1]] == [0, [6]]
    assert [entry[0] for entry in bought["entries"][dealt[1]]] == ["buy_in", "addon"]
    dealer.take(dealer.run.disqualify(dealt[2], dealer.now))
    dealer.run.penalize(dealt[3], 1)
    assert [entry[0] for entry in saved()["log"]] == ["disqualify", "penalize"]
    restored = TournamentRun.restore(json.loads(dealer.run.snapshot()), random.Random(0))
    assert restored.snapshot() == dealer.run.snapshot()


def test_a_snapshot_encodes_a_table_again_when_any_of_its_fields_changed() -> None:
    changed = {
        "seats": {1: "a", 2: "b", 3: "c"},
        "button_seat": 2,
        "status": TableStatus.PLAYING,
        "hand_no": 8,
        "hand_level": 2,
        "hand_for_hand_round": 1,
        "offers": ["b"],
        "busts": [PendingBust(Bust("b", 9, 1, 1), "h7")],
    }
    assert set(changed) == {field.name for field in fields(TablePlay)}  # a new field: its change here, and kept
    for name, value in changed.items():
        table = TablePlay(seats={1: "a", 2: "b"}, button_seat=1, hand_no=7, hand_level=1)
        state = RunState("t", "EUR", scheduled_30(), (), NOW, NOW, (1, False), {1: table}, chips={"a": 9, "b": 9})
        writer = SnapshotWriter()
        writer.text(state)
        setattr(table, name, value)
        assert json.loads(writer.text(state)) == state_to_json(state), name


def test_p6_4_p12_5_disqualifications_between_hands_can_end_a_shootout_phase() -> None:
    definition = revise(
        shootout_sit_and_go("shootout", PRICE, tables=2, seats_per_table=6),
        blinds=scheduled_mtt("x", PRICE).blinds,  # with a break after level 6
    )
    dealer = Dealer(definition, 12)
    first, second = sorted(dealer.hands)
    dealt = [seated.player_id for seated in dealer.dealt(first)]
    assert TableHeld(tournament_id="t", table_id=first) in dealer.complete(
        first, dealer.busting(first, dealt[1:], dealt[0])
    )
    dealer.tick(60)  # the break: the other table completes its hand and waits
    dealer.complete(second)
    others = [seated.player_id for seated in dealer.run.tables()[second]]
    for player in others[1:-1]:
        assert of_type(dealer.take(dealer.run.disqualify(player, dealer.now)), ShootoutPhaseStarted) == []
    messages = dealer.take(dealer.run.disqualify(others[-1], dealer.now))
    (phase,) = of_type(messages, ShootoutPhaseStarted)
    assert phase.phase == 2 and of_type(messages, FinalTableStarted) == [
        FinalTableStarted(tournament_id="t", table_id=phase.tables[0])
    ]
    assert sorted(seated.player_id for seated in dealer.run.tables()[phase.tables[0]]) == sorted([dealt[0], others[0]])


def test_p4_2_with_the_common_eligibility_a_short_stack_may_rebuy_between_hands() -> None:
    base = rebuy_mtt("rebuys", REBUY_PRICE, max_players=10)
    assert base.rebuy is not None
    definition = revise(
        base, rebuy=base.rebuy.model_copy(update={"eligibility": RebuyEligibility.AT_OR_BELOW_STARTING_STACK})
    )
    dealer = Dealer(definition, 10)
    table = sorted(dealer.hands)[0]
    short, tall = (seated.player_id for seated in dealer.dealt(table)[:2])
    messages = dealer.take(dealer.run.rebuy(short, dealer.now))  # at the starting stack, during a hand
    assert of_type(messages, AddChips) == [AddChips(table_id=table, player_id=short, amount=3_000, reason="rebuy")]
    dealer.complete(table, {short: 500, tall: -500})
    assert dealer.run.chips[short] == 3_000 + 500 + 3_000  # the rebuy is credited once the hand is over
    assert dealer.run.rebuy_refusal(short, dealer.now) is PurchaseRefusal.NOT_OUT_OF_CHIPS
    assert dealer.run.rebuy_refusal(tall, dealer.now) is None


def test_p10_a_voided_hand_credits_the_chips_bought_during_it_and_is_dealt_again() -> None:
    """The engine restores the start-of-hand stacks and adds the rebuy at once; the run must agree, or the next
    result of that table is refused and the tournament stalls (found by the e2e faulty run)."""
    base = rebuy_mtt("rebuys", REBUY_PRICE, max_players=10)
    assert base.rebuy is not None
    definition = revise(
        base, rebuy=base.rebuy.model_copy(update={"eligibility": RebuyEligibility.AT_OR_BELOW_STARTING_STACK})
    )
    dealer = Dealer(definition, 10)
    table = sorted(dealer.hands)[0]
    short = dealer.dealt(table)[0].player_id
    hand_no = dealer.run.hand_in_progress(table)
    assert hand_no is not None
    dealer.take(dealer.run.rebuy(short, dealer.now))  # during the hand: credited when it ends
    assert dealer.run.chips[short] == 3_000

    again = dealer.run.on_hand_voided(table, hand_no.hand_no)

    assert again == (hand_no,)
    assert dealer.run.chips[short] == 3_000 + 3_000
    assert dealer.run.on_hand_voided(table, hand_no.hand_no + 1) == ()  # not the hand in progress


def test_p9_2_a_cash_freeroll_pool_is_made_of_the_sponsored_entries() -> None:
    dealer = Dealer(freeroll("free", guarantee_cents=0, max_players=10), 10)
    assert dealer.run.prize_pool().pool_cents == 10 * 40
    cancellation = dealer.run.cancel(dealer.now, "outage")
    assert cancellation.settlement.rule == "P-10.9"
    assert {entry.kind for entries in cancellation.case.entries.values() for entry in entries} == {EntryKind.SPONSORED}
