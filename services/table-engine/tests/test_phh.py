"""PHH hand histories: reading, replaying recorded hands through the engine, writing per viewer (P-1.4).

Always run, with nothing fetched from outside the repo:
- random no-limit and fixed-limit hands played by pokerkit and written by pokerkit's own PHH writer
  (``pokerkit_hands.py``): our replay and the ``table-engine phh replay`` command must end each one with
  pokerkit's finishing stacks;
- PHH texts written for these tests (below): the notation, the fields, the refusals, the command's output;
- the engine's own histories, per viewer, read back by our replay and by pokerkit.

Real hands, from the archive ``../shared/data/phh-dataset.tgz`` beside the project (extracted for the run) or
from the folder the environment variable ``PHH_DATASET_DIR`` names: the no-limit and fixed-limit hold'em hands
of the 2023 WSOP Event #43 final table (exact finishing stacks), 50 of the 10,000 Pluribus hands (8 of them with
half-chip split pots), the 2009 Dwan-Ivey hand with unknown hole cards, and a real hand with one fold taken out
of its actions (refused). They come from the public PHH dataset and are never committed (data fetched from
public repositories stays out of the repo). Point ``PHH_DATASET_DIR`` at
- a checkout of the public dataset, github:uoftcprg/phh-dataset (or the ``data/`` folder of github:uoftcprg/pokerkit):
  files are read at their published paths, e.g. ``data/pluribus/102/0.phh``; or
- a folder holding just those files: ``wsop-2023-43-5/<hand>.phh``, ``pluribus/<folder>-<hand>.phh``,
  and ``dwan-ivey-2009.phh``, with a README.md of the expectations.

    PHH_DATASET_DIR=/path/to/phh-dataset uv run pytest services/table-engine/tests/test_phh.py -q -p no:cacheprovider

With neither, those tests are skipped and the skip says so (pytest's ``-ra`` shows the reason); under ``CI=true``
they fail instead: CI always replays the real hands.
"""

from __future__ import annotations

import json
import random
import subprocess
import sys
from collections import Counter
from datetime import time
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from phh_dataset import (
    HALF_CHIP_HANDS,
    PLURIBUS_HANDS,
    WSOP_HANDS,
    dwan_ivey_file,
    missing_fold_text,
    needs_dataset,
    pluribus_file,
    wsop_file,
)
from pokerkit import HandHistory
from pokerkit_hands import KEPT, VARIANTS, play_pokerkit_hand
from table_engine.cli import main
from table_engine.domain import (
    CALL,
    CHECK,
    FOLD,
    Action,
    BettingStructure,
    Hand,
    HandConfig,
    SeatConfig,
    TableRules,
    cards_text,
    next_positions,
    parse_cards,
    shuffled_deck,
)
from table_engine.domain.random_play import play_out
from table_engine.phh.notation import PhhAction, PhhError, dumps, loads, parse_action
from table_engine.phh.replay import ReplayError, replay
from table_engine.phh.writer import audit_history, history, write
from table_engine_scenarios import deal, play, table

# Written for these tests. Four players, a big-blind ante; p4 is all-in on the flop, p1 and p2 on the turn.
# Main pot 3,700 (the 100 ante, then 900 each from p1, p2 and p4) to p4's wheel, A-2-3-4-5; the side pots,
# 1,200 + 1,200, to p2's three queens over p1's ace-king; p1 gets back the 600 that p2 could not call.
NO_LIMIT_HAND = """\
variant = "NT"
ante_trimming_status = false
antes = [0, 100, 0, 0]
blinds_or_straddles = [50, 100, 0, 0]
min_bet = 100
starting_stacks = [3000, 2500, 4000, 1200]
actions = [
  "d dh p1 AhKh", "d dh p2 QsQd", "d dh p3 7c2d", "d dh p4 Ac4c",
  "p3 f", "p4 cbr 300", "p1 cc", "p2 cc",
  "d db Qh8h3c",
  "p1 cc", "p2 cbr 500", "p4 cc", "p1 cbr 1500", "p2 cc", "p4 cc",
  "d db 2s",
  "p1 cbr 1200", "p2 cc",
  "d db 5d",
  "p1 sm AhKh", "p2 sm QsQd", "p4 sm Ac4c",
]
finishing_stacks = [600, 2400, 4000, 3700]
"""

# Written for these tests. Three players, fixed-limit 20/40: p1's nines win without a showdown on the river.
FIXED_LIMIT_HAND = """\
variant = "FT"
ante_trimming_status = true
antes = [0, 0, 0]
blinds_or_straddles = [10, 20, 0]
small_bet = 20
big_bet = 40
starting_stacks = [500, 800, 650]
actions = [
  "d dh p1 9s9d", "d dh p2 AcJd", "d dh p3 Kh7h",
  "p3 cbr 40", "p1 cc", "p2 f",
  "d db 9h5c2d", "p1 cc", "p3 cbr 20", "p1 cbr 40", "p3 cc",
  "d db Tc", "p1 cbr 40", "p3 cc",
  "d db 4s", "p1 cbr 40", "p3 f",
]
author = "table-engine tests"
event = "A hand written for the tests"
hand = 7
players = ["Ana", "Ben", "Cleo"]
finishing_stacks = [640, 780, 530]
"""

# NO_LIMIT_HAND without p4's pre-flop raise: after p3 folds it is p4's turn, yet the next action is p1's.
SKIPPED_PLAYER_HAND = NO_LIMIT_HAND.replace('"p3 f", "p4 cbr 300", "p1 cc"', '"p3 f", "p1 cc"')


# ------------------------------------------------------------------------------------------- notation


def test_parse_action_reads_every_hold_em_notation() -> None:
    assert parse_action("d dh p3 AcKd") == PhhAction(None, "dh", "AcKd", 2)
    assert parse_action("d db Jc3d5c  # the flop") == PhhAction(None, "db", "Jc3d5c")
    assert parse_action("p2 cbr 7000") == PhhAction(1, "cbr", "7000")
    assert parse_action("p1 sm") == PhhAction(0, "sm", None)
    assert parse_action("  # a no-op  ") is None
    for bad in ("x1 f", "p0 f", "p1", "d dh AcKd", "p1 cbr 1 2"):
        with pytest.raises(PhhError):
            parse_action(bad)


def test_loads_keeps_known_and_user_defined_fields_and_dumps_them_back() -> None:
    phh = loads(FIXED_LIMIT_HAND + '_table_id = "t-9"\ntime = 20:15:00\n')
    assert (phh.variant, phh.small_bet, phh.big_bet, phh.player_count) == ("FT", 20, 40, 3)
    assert phh.ante_trimming_status is True and phh.min_bet is None
    assert phh.actions[3:6] == ("p3 cbr 40", "p1 cc", "p2 f")
    assert phh.fields["_table_id"] == "t-9"
    assert phh.fields["time"] == time(20, 15)
    assert (phh.fields["hand"], phh.fields["players"]) == (7, ["Ana", "Ben", "Cleo"])
    assert phh.finishing_stacks == (640, 780, 530)
    written = dumps(phh)
    assert loads(written) == phh
    # Required fields first, then the optional ones in the spec's order, then the user-defined ones.
    assert written.index("starting_stacks") < written.index("actions") < written.index("author")
    assert written.index("author") < written.index("time") < written.index("finishing_stacks")
    assert written.index("finishing_stacks") < written.index("_table_id")


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("variant = 'PO'", "not Texas hold'em"),
        ("variant = 'NT'\nantes = [0, 0]", "missing"),
        (
            "variant = 'NT'\nantes = [0]\nblinds_or_straddles = [1, 2]\nstarting_stacks = [5, 5]\n"
            "actions = []\nmin_bet = 2",
            "antes has 1 entries",
        ),
        ("variant = ", "TOML"),
    ],
)
def test_loads_refuses_what_is_not_a_hold_em_hand(text: str, message: str) -> None:
    with pytest.raises(PhhError, match=message):
        loads(text)


# --------------------------------------------------------------------------------------------- replay


@pytest.mark.parametrize("text", [NO_LIMIT_HAND, FIXED_LIMIT_HAND], ids=["no-limit", "fixed-limit"])
def test_p1_2_replay_of_hands_written_for_the_tests(text: str) -> None:
    """The stacks worked out by hand (and recorded in the text) are the engine's, and pokerkit's."""
    phh = loads(text)
    assert phh.finishing_stacks is not None
    expected = list(phh.finishing_stacks)
    assert replay(phh) == expected
    assert list(HandHistory.loads(text))[-1].stacks == expected


def test_replay_refuses_a_hand_whose_actions_skip_a_player() -> None:
    """The text omits p4's turn; we stop there instead of guessing (pokerkit gives up on it as well)."""
    with pytest.raises(ReplayError, match=r"action 6 \('p1 cc'\): it is seat 4's turn"):
        replay(loads(SKIPPED_PLAYER_HAND))


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (("blinds_or_straddles = [50, 100, 0, 0]", "blinds_or_straddles = [50, 100, 200, 0]"), "straddles"),
        (("min_bet = 100", "min_bet = 150"), "minimum bet"),
        (("antes = [0, 100, 0, 0]", "antes = [10, 100, 0, 0]"), "antes"),
        (("starting_stacks = [3000,", "starting_stacks = [3000.5,"), "whole number"),
        (('"p4 cbr 300"', '"p4 cbr 150"'), "action 6 .* 200 at least"),
        (('"p2 sm QsQd"', '"p2 sd"'), "does not exist"),
        (('"p4 cbr 300"', '"# a comment", "p4 cbr lots"'), "action 7 .*not an amount"),
    ],
)
def test_replay_explains_what_it_cannot_play(change: tuple[str, str], message: str) -> None:
    assert change[0] in NO_LIMIT_HAND
    with pytest.raises(ReplayError, match=message):
        replay(loads(NO_LIMIT_HAND.replace(*change)))


POKERKIT_HANDS = 100  # per variant


@pytest.mark.parametrize("variant", VARIANTS)
def test_p1_2_replay_ends_pokerkit_written_hands_with_pokerkit_stacks(
    variant: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """P-1.2 against an independent oracle: pokerkit plays random hands (all-ins, side pots) and writes them with
    its own PHH writer; our replay, and the command on the files, end each one with pokerkit's stacks."""
    rng = random.Random(f"phh-pokerkit-{variant}")
    hands = [play_pokerkit_hand(rng, variant) for _ in range(POKERKIT_HANDS)]
    kept = [hand for hand in hands if hand.outcome == KEPT]
    # Most hands, side pots among them, must really be compared for the test to mean something.
    assert len(kept) >= POKERKIT_HANDS * 7 // 10, Counter(hand.outcome for hand in hands)
    assert sum(hand.side_pots for hand in kept) >= POKERKIT_HANDS // 20
    paths = []
    for number, hand in enumerate(kept):
        assert replay(loads(hand.text)) == hand.finishing_stacks, hand.text
        paths.append(tmp_path / f"{number}.phh")
        paths[-1].write_text(hand.text, encoding="utf-8")
    assert main(["phh", "replay", *map(str, paths)]) == 0
    lines = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert lines == [
        {"file": str(path), "finishing_stacks": hand.finishing_stacks} for path, hand in zip(paths, kept, strict=True)
    ]


# ------------------------------------------------------------------- real hands (only with PHH_DATASET_DIR)


def recorded(path: Path) -> tuple[list[int], list[float]]:
    phh = loads(path.read_text(encoding="utf-8"))
    finishing = phh.finishing_stacks
    assert finishing is not None
    return replay(phh), list(map(float, finishing))


@needs_dataset
@pytest.mark.parametrize("hand", WSOP_HANDS)
def test_p1_2_replay_reproduces_the_wsop_final_table(hand: int) -> None:
    """2023 WSOP Event #43 final table: no-limit hands (one with a big-blind ante) and fixed-limit hands."""
    ours, theirs = recorded(wsop_file(hand))
    assert ours == theirs


@needs_dataset
def test_real_hands_cover_both_structures() -> None:
    variants = Counter(loads(wsop_file(hand).read_text(encoding="utf-8")).variant for hand in WSOP_HANDS)
    assert variants == {"NT": 11, "FT": 7}
    assert len(set(PLURIBUS_HANDS)) == 50 and set(HALF_CHIP_HANDS) <= set(PLURIBUS_HANDS)


@needs_dataset
@pytest.mark.parametrize("name", [name for name in PLURIBUS_HANDS if name not in HALF_CHIP_HANDS])
def test_p1_2_replay_reproduces_the_pluribus_hands(name: str) -> None:
    ours, theirs = recorded(pluribus_file(name))
    assert ours == theirs


@needs_dataset
@pytest.mark.parametrize("name", HALF_CHIP_HANDS)
def test_p1_2a_half_chip_split_pots_give_the_odd_chip_left_of_the_button(name: str) -> None:
    """The Pluribus log splits odd pots into half chips; we keep whole chips and give the odd one to the first
    winner left of the button (P-1.2a), so each winner is half a chip from the file, the first one above."""
    ours, theirs = recorded(pluribus_file(name))
    differences = [mine - file for mine, file in zip(ours, theirs, strict=True)]
    assert sum(ours) == sum(theirs)
    assert sorted(d for d in differences if d) == [-0.5, 0.5]
    assert differences.index(0.5) < differences.index(-0.5)  # player order starts left of the button


@needs_dataset
def test_p1_2_replay_of_a_hand_with_unknown_hole_cards() -> None:
    """Dwan-Ivey 2009: one folded hand is unknown ('????'); antes, all-in and run-out."""
    phh = loads(dwan_ivey_file().read_text(encoding="utf-8"))
    assert phh.finishing_stacks is None
    assert replay(phh) == [572_100, 1_997_500, 1_109_500]


@needs_dataset
def test_replay_refuses_a_real_hand_whose_actions_skip_a_player() -> None:
    """The actions omit a pre-flop fold; we stop there instead of guessing (pokerkit applies the next action to
    the wrong player and ends with stacks that differ from the file's)."""
    phh = loads(missing_fold_text())
    with pytest.raises(ReplayError, match="seat 5's turn"):
        replay(phh)


# ------------------------------------------------------------------------------------------------ CLI


def test_cli_phh_replay_prints_one_json_line_per_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    good, bad, missing = tmp_path / "good.phh", tmp_path / "bad.phh", tmp_path / "missing.phh"
    good.write_text(NO_LIMIT_HAND, encoding="utf-8")
    bad.write_text(SKIPPED_PLAYER_HAND, encoding="utf-8")
    status = main(["phh", "replay", str(good), str(bad), str(missing)])
    lines = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert status == 1
    assert lines[0] == {"file": str(good), "finishing_stacks": [600, 2_400, 4_000, 3_700]}
    assert lines[1]["file"] == str(bad) and "seat 4's turn" in lines[1]["error"]
    assert lines[2]["file"] == str(missing) and "No such file" in lines[2]["error"]
    assert len(lines) == 3


def test_cli_runs_as_a_program(tmp_path: Path) -> None:
    path = tmp_path / "fixed-limit.phh"
    path.write_text(FIXED_LIMIT_HAND, encoding="utf-8")
    completed = subprocess.run(
        [sys.executable, "-m", "table_engine.cli", "phh", "replay", str(path)],
        capture_output=True,
        text=True,
        check=True,
    )
    assert json.loads(completed.stdout) == {"file": str(path), "finishing_stacks": [640, 780, 530]}


def test_cli_needs_a_subcommand(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main([])
    assert "COMMAND" in capsys.readouterr().err


# -------------------------------------------------------------------------------------------- writer


def random_hand(seed: int) -> Hand:
    """A played hand of any structure, 2-9 players, antes or a big-blind ante, sometimes a dead small blind."""
    rng = random.Random(seed)
    structure = rng.choice(list(BettingStructure))
    bba = rng.random() < 0.3
    rules = TableRules(structure, 50, 100, ante=100 if bba else rng.choice((0, 10)), big_blind_ante=bba)
    seats = sorted(rng.sample(range(1, 10), rng.randint(2, 9)))
    stacks = {seat: SeatConfig(f"player-{seat}", rng.randint(1, 80) * 100) for seat in seats}
    if len(seats) > 3 and rng.random() < 0.3:  # the previous big blind's player left: dead small blind
        positions = next_positions(
            next_positions(HandConfig.from_button(rules, stacks, seats[0]).positions, seats).positions, seats
        ).positions
        gone = positions.big_blind
        dealt = {seat: stacks[seat] for seat in seats if seat != gone}
        following = next_positions(positions, list(dealt))
        config = HandConfig(rules, {seat: dealt[seat] for seat in following.dealt_in}, following.positions)
    else:
        config = HandConfig.from_button(rules, stacks, rng.choice(seats))
    return play_out(Hand(config, shuffled_deck(rng)), rng)


def cards_in(text: str) -> set[int]:
    found: set[int] = set()
    for action in loads(text).actions:
        parsed = parse_action(action)
        if parsed and parsed.verb in ("dh", "db", "sm") and parsed.argument and "?" not in parsed.argument:
            found |= set(parse_cards(parsed.argument))
    return found


@settings(max_examples=150, deadline=None)
@given(seed=st.integers(0, 2**32))
def test_p1_4_a_viewers_history_shows_only_their_cards_and_what_was_shown(seed: int) -> None:
    hand = random_hand(seed)
    public = set(hand.board) | {card for cards in hand.shown_cards().values() for card in cards}
    assert cards_in(write(hand, None)) == public
    for seat in hand.config.order:
        own = set(hand.hole_cards(seat))
        assert cards_in(write(hand, seat)) == public | own
    everything = public | {card for seat in hand.config.order for card in hand.hole_cards(seat)}
    assert cards_in(dumps(audit_history(hand))) == everything


def test_p1_4_a_mucked_hand_stays_hidden_even_from_the_winner() -> None:
    hand = deal(table(1_000, 1_000, 1_000), ["7c2d", "AsKd", "QhQc"], "AdKh9s5c3h")
    play(hand, (3, CALL), (1, CALL), (2, CHECK))
    while hand.to_act is not None:
        play(hand, (hand.to_act, CHECK))
    assert 3 not in hand.shown_cards()  # seat 3's queens were mucked
    for viewer in (None, 1, 2):
        text = write(hand, viewer)
        assert "QhQc" not in text and "d dh p3 ????" in text and 'p3 sm"' in text
    assert "d dh p3 QhQc" in write(hand, 3)


@settings(max_examples=150, deadline=None)
@given(seed=st.integers(0, 2**32))
def test_p1_4_the_public_history_replays_to_the_same_stacks(seed: int) -> None:
    """Hidden cards never decide anything: the public copy, replayed through the engine, ends the same."""
    hand = random_hand(seed)
    expected = [hand.result.end_stacks[seat] for seat in hand.config.order]
    for text in (write(hand, None), dumps(audit_history(hand))):
        phh = loads(text)
        assert phh.finishing_stacks == tuple(expected)
        assert replay(phh) == expected


def test_writer_fields_positions_and_extra_fields() -> None:
    hand = deal(table(1_000, 800, ante=100, big_blind_ante=True), ["AsAh", "7c2d"], "3d8c9hJd4s")
    play(hand, (2, FOLD))
    phh = history(hand, 1, fields={"hand": 12, "currency": "EUR"})
    # Heads-up, PHH applies the forced-bet arrays reversed: player 1 (seat 1) is the big blind.
    assert (phh.variant, phh.antes, phh.blinds_or_straddles, phh.min_bet) == ("NT", (0, 100), (50, 100), 100)
    assert phh.ante_trimming_status is False
    assert phh.fields["seats"] == [1, 2] and phh.fields["players"] == ["player-1", "player-2"]
    assert phh.fields["finishing_stacks"] == [1_050, 750]
    assert (phh.fields["hand"], phh.fields["currency"]) == (12, "EUR")
    assert phh.actions == ("d dh p1 AsAh", "d dh p2 ????", "p2 f")
    with pytest.raises(PhhError):
        history(hand, 1, fields={"actions": []})
    fixed = play_out(deal(table(1_000, 1_000, 1_000, structure=BettingStructure.FIXED_LIMIT)), random.Random(3))
    assert (history(fixed, None).small_bet, history(fixed, None).big_bet) == (100, 200)


def test_writer_mid_hand_has_no_finishing_stacks() -> None:
    hand = deal(table(1_000, 1_000, 1_000))
    play(hand, (3, Action.raise_to(300)))
    phh = history(hand, 3)
    assert "finishing_stacks" not in phh.fields
    assert phh.actions[-1] == "p3 cbr 300"


def test_pokerkit_reads_our_histories_to_the_same_stacks() -> None:
    hand = deal(table(5_000, 3_000, 8_000, 2_000), ["AsAh", "KsKh", "QsQh", "JsJh"], "2c7d9hTd3s")
    play(hand, (3, Action.raise_to(400)), (4, CALL), (1, CALL), (2, Action.raise_to(3_000)), (3, CALL))
    play(hand, (4, CALL), (1, FOLD))
    played = list(HandHistory.loads(dumps(audit_history(hand))))
    assert played[-1].stacks == [hand.result.end_stacks[seat] for seat in hand.config.order]
    assert cards_text(hand.board) == "2c7d9hTd3s"
