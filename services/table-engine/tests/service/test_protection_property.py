"""All-in protection (P-13.2) as a property of the pure replay: whatever the hand and the moment, protecting a
player keeps every chip, keeps the player from busting, lets them play no further, and the recorded actions
replay to the very same hand (histories and rebuilt hands depend on it)."""

from __future__ import annotations

import random

from hypothesis import event, given, settings
from hypothesis import strategies as st
from table_engine.domain import BettingStructure, Hand, HandConfig, SeatConfig, TableRules, shuffled_deck
from table_engine.domain.protection import protect_all_in
from table_engine.domain.random_play import random_action
from table_engine.domain.records import RecordedAction, replay


def play(hand: Hand, rng: random.Random, steps: int, record: list[RecordedAction]) -> None:
    while steps and hand.to_act is not None:
        seat = hand.to_act
        action = random_action(hand.legal_actions(), rng)
        hand.act(seat, action)
        record.append(RecordedAction(seat, action.kind, action.amount))
        steps -= 1


@settings(max_examples=150, deadline=None)
@given(
    seed=st.integers(0, 2**32),
    stacks=st.lists(st.integers(1, 400), min_size=2, max_size=6),
    structure=st.sampled_from(list(BettingStructure)),
    prefix=st.integers(0, 12),
)
def test_p13_2_all_in_protection_conserves_chips_and_replays_exactly(
    seed: int, stacks: list[int], structure: BettingStructure, prefix: int
) -> None:
    rng = random.Random(seed)
    rules = TableRules(structure, small_blind=5, big_blind=10, ante=rng.choice([0, 2]))
    seats = {n: SeatConfig(f"p{n}", stack) for n, stack in enumerate(stacks, 1)}
    hand = Hand(HandConfig.from_button(rules, seats, button=1), shuffled_deck(rng))
    actions: list[RecordedAction] = []
    play(hand, rng, prefix, actions)
    candidates = [n for n in hand.config.order if n not in hand.folded] if not hand.is_complete else []
    if not candidates:
        event("hand over before anyone could be protected")
        return
    seat = rng.choice(candidates)

    protected = protect_all_in(hand, actions, seat)
    if protected is None:
        event("nothing to protect")
        assert hand.stacks[seat] == 0 or hand.stacks[seat] == seats[seat].stack
        return
    event("protected")
    assert protected.set_aside == hand.stacks[seat]
    after = protected.hand
    kept = list(protected.actions)
    assert replay(after.config, after.deck, kept).events == after.events
    play(after, rng, 10_000, kept)
    assert seat not in {a.seat for a in kept[len(protected.actions) :]}, "a protected player never acts"
    assert replay(after.config, after.deck, kept).events == after.events

    end = dict(after.result.end_stacks)
    end[seat] += protected.set_aside
    assert sum(end.values()) == sum(stacks)
    assert end[seat] >= protected.set_aside > 0
