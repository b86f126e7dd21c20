"""Complete random 6-max no-limit hands per second: the table engine against pokerkit, on the same harness.

Each engine plays the same hands: six players with unequal stacks (20 to 300 big blinds, so side pots are
common), blinds 50/100, and at every decision a kind of action drawn uniformly among those allowed (fold,
check, call, bet/raise), a bet or raise to a uniform amount between the minimum and the maximum. The table
engine deals from decks shuffled before the clock starts (it never shuffles); pokerkit deals from its own deck
with its automations, its fastest way. Each engine draws its actions from its own generator, seeded alike.
After every hand the harness checks that no chip was created or lost.

The two engines run in alternating batches, so that both see the same load when the machine is shared.
Run: ``uv run python bench/bench_table_engine.py [--seconds S] [--profile]``. The goal is 10,000 hands/s.
"""

from __future__ import annotations

import argparse
import cProfile
import pstats
import random
import time
from typing import NamedTuple

from pokerkit import Automation, NoLimitTexasHoldem
from table_engine.domain import BettingStructure, Hand, HandConfig, SeatConfig, TableRules, shuffled_deck
from table_engine.domain.random_play import random_action

GOAL = 10_000
RULES = TableRules(BettingStructure.NO_LIMIT, small_blind=50, big_blind=100)
POKERKIT_AUTOMATIONS = (
    Automation.ANTE_POSTING,
    Automation.BET_COLLECTION,
    Automation.BLIND_OR_STRADDLE_POSTING,
    Automation.CARD_BURNING,
    Automation.HOLE_DEALING,
    Automation.BOARD_DEALING,
    Automation.HOLE_CARDS_SHOWING_OR_MUCKING,
    Automation.HAND_KILLING,
    Automation.CHIPS_PUSHING,
    Automation.CHIPS_PULLING,
)

Case = tuple[list[int], list[int], dict[int, SeatConfig]]  # stacks in dealing order, deck, seats


class Measure(NamedTuple):
    hands: int
    wall: float
    cpu: float
    actions: int


def make_cases(count: int, seed: int = 6) -> list[Case]:
    rng = random.Random(seed)
    cases = []
    for _ in range(count):
        stacks = [rng.randint(20, 300) * 100 for _ in range(6)]
        seats = {seat: SeatConfig(f"player-{seat}", stack) for seat, stack in enumerate(stacks, 1)}
        cases.append((stacks, shuffled_deck(rng), seats))
    return cases


def play_table_engine(cases: list[Case], rng: random.Random) -> int:
    """Play every case; the number of actions taken."""
    actions = 0
    for stacks, deck, seats in cases:
        hand = Hand(HandConfig.from_button(RULES, seats, button=6), deck)
        while (seat := hand.to_act) is not None:
            hand.act(seat, random_action(hand.legal_actions(), rng))
            actions += 1
        assert sum(hand.stacks.values()) == sum(stacks), "chips not conserved"
    return actions


def play_pokerkit(cases: list[Case], rng: random.Random) -> int:
    actions = 0
    for stacks, _, _ in cases:
        state = NoLimitTexasHoldem.create_state(POKERKIT_AUTOMATIONS, True, 0, (50, 100), 100, stacks, 6)
        while state.status:
            choices = []
            if state.can_fold():
                choices.append("fold")
            if state.can_check_or_call():
                choices.append("check_or_call")
            if state.can_complete_bet_or_raise_to():
                choices.append("raise")
            choice = choices[int(rng.random() * len(choices))]
            if choice == "fold":
                state.fold()
            elif choice == "check_or_call":
                state.check_or_call()
            else:
                low = state.min_completion_betting_or_raising_to_amount
                high = state.max_completion_betting_or_raising_to_amount
                assert low is not None and high is not None
                state.complete_bet_or_raise_to(rng.randint(low, high))
            actions += 1
        assert sum(state.stacks) == sum(stacks), "chips not conserved"
    return actions


ENGINES = (("table-engine", play_table_engine, 200), ("pokerkit", play_pokerkit, 10))


def measure(cases: list[Case], seconds: float) -> dict[str, Measure]:
    """Play both engines in alternating batches (sized to take about as long) until ``seconds`` have passed,
    so that both see the same load when other work shares the machine."""
    totals = {name: Measure(0, 0.0, 0.0, 0) for name, _, _ in ENGINES}
    generators = {name: random.Random(7) for name, _, _ in ENGINES}
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        for name, play, batch in ENGINES:
            done = totals[name]
            first = done.hands % len(cases)
            chunk = cases[first : first + batch]
            wall, cpu = time.perf_counter(), time.process_time()
            actions = play(chunk, generators[name])
            wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
            totals[name] = Measure(done.hands + len(chunk), done.wall + wall, done.cpu + cpu, done.actions + actions)
    return totals


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seconds", type=float, default=3.0, help="about the time each engine gets (in turns)")
    parser.add_argument("--profile", action="store_true", help="profile the table engine instead")
    args = parser.parse_args()
    cases = make_cases(20_000)
    if args.profile:
        profiler = cProfile.Profile()
        profiler.runcall(play_table_engine, cases[:5_000], random.Random(7))
        pstats.Stats(profiler).sort_stats("tottime").print_stats(20)
        return
    play_table_engine(cases[:500], random.Random(7))  # warm up
    print(f"Random 6-max no-limit hands, both engines in alternating batches for {2 * args.seconds:g} s\n")
    print(f"| {'engine':<14} | {'hands':>7} | {'hands/s':>8} | {'hands/CPU-s':>11} | {'actions/hand':>12} |")
    print(f"|{'-' * 16}|{'-' * 9}|{'-' * 10}|{'-' * 13}|{'-' * 14}|")
    results = measure(cases, 2 * args.seconds)
    for name, run in results.items():
        print(
            f"| {name:<14} | {run.hands:>7,} | {run.hands / run.wall:>8,.0f} | {run.hands / run.cpu:>11,.0f} "
            f"| {run.actions / run.hands:>12.1f} |"
        )
    ours, theirs = results["table-engine"], results["pokerkit"]
    rate = ours.hands / ours.wall
    verdict = "reached" if rate >= GOAL else "NOT reached"
    ratio = rate / (theirs.hands / theirs.wall)
    print(f"\ntable-engine is {ratio:.0f}x pokerkit; goal of {GOAL:,} hands/s (wall clock) {verdict}")
    print("hands/CPU-s counts only this process's CPU time: steadier when other work shares the machine")


if __name__ == "__main__":
    main()
