"""PHH hand histories: reading, replaying recorded hands through the engine, writing per viewer (P-1.4).

Fixtures (tests/fixtures/phh, see its README): the no-limit and fixed-limit hold'em hands of the 2023 WSOP
Event #43 final table, 50 of the 10,000 Pluribus hands, one televised hand with unknown hole cards, and one
file whose actions are incomplete.
"""

from __future__ import annotations

import json
import random
import subprocess
import sys
from datetime import time
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from pokerkit import HandHistory
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

FIXTURES = Path(__file__).parent / "fixtures" / "phh"
WSOP = sorted((FIXTURES / "wsop-2023-43-5").glob("*.phh"))
PLURIBUS = sorted((FIXTURES / "pluribus").glob("*.phh"))
# Split pots of an odd number of chips: the Pluribus logs give each winner half a chip; chips are whole here.
HALF_CHIP_FILES = {"102-0", "32-23", "41b-204", "60-88", "75b-76", "88-128", "91-43", "91-53"}


def recorded(path: Path) -> tuple[list[int], list[float]]:
    phh = loads(path.read_text())
    finishing = phh.finishing_stacks
    assert finishing is not None
    return replay(phh), list(map(float, finishing))


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
    text = (FIXTURES / "wsop-2023-43-5" / "34.phh").read_text() + '\n_table_id = "t-9"\ntime = 20:15:00\n'
    phh = loads(text)
    assert (phh.variant, phh.small_bet, phh.big_bet, phh.player_count) == ("FT", 200000, 400000, 5)
    assert phh.fields["_table_id"] == "t-9"
    assert phh.fields["time"] == time(20, 15)
    again = loads(dumps(phh))
    assert again == phh
    written = dumps(phh)
    assert written.index("starting_stacks") < written.index("actions") < written.index("author")


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


@pytest.mark.parametrize("path", WSOP, ids=lambda path: path.stem)
def test_p1_2_replay_reproduces_the_wsop_final_table(path: Path) -> None:
    """2023 WSOP Event #43 final table: no-limit hands (one with a big-blind ante) and fixed-limit hands."""
    ours, theirs = recorded(path)
    assert ours == theirs


def test_replay_fixtures_cover_both_structures() -> None:
    variants = {loads(path.read_text()).variant for path in WSOP}
    assert variants == {"NT", "FT"}
    assert len(PLURIBUS) >= 40


@pytest.mark.parametrize("path", [p for p in PLURIBUS if p.stem not in HALF_CHIP_FILES], ids=lambda p: p.stem)
def test_p1_2_replay_reproduces_the_pluribus_hands(path: Path) -> None:
    ours, theirs = recorded(path)
    assert ours == theirs


@pytest.mark.parametrize("stem", sorted(HALF_CHIP_FILES))
def test_p1_2a_half_chip_split_pots_give_the_odd_chip_left_of_the_button(stem: str) -> None:
    """The Pluribus log splits odd pots into half chips; we keep whole chips and give the odd one to the first
    winner left of the button (P-1.2a), so each winner is half a chip from the file, the first one above."""
    ours, theirs = recorded(FIXTURES / "pluribus" / f"{stem}.phh")
    differences = [mine - file for mine, file in zip(ours, theirs, strict=True)]
    assert sum(ours) == sum(theirs)
    assert sorted(d for d in differences if d) == [-0.5, 0.5]
    assert differences.index(0.5) < differences.index(-0.5)  # player order starts left of the button


def test_p1_2_replay_of_a_hand_with_unknown_hole_cards() -> None:
    """Dwan-Ivey 2009: one folded hand is unknown ('????'); antes, all-in and run-out."""
    phh = loads((FIXTURES / "dwan-ivey-2009.phh").read_text())
    assert phh.finishing_stacks is None
    assert replay(phh) == [572_100, 1_997_500, 1_109_500]


def test_replay_refuses_a_hand_whose_actions_skip_a_player() -> None:
    """The file omits the button's pre-flop fold; we stop there instead of guessing."""
    phh = loads((FIXTURES / "wsop-2019-42-3-00-01-07-missing-fold.phh").read_text())
    with pytest.raises(ReplayError, match="seat 8's turn"):
        replay(phh)


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (
            ("blinds_or_straddles = [40000, 80000, 0, 0, 0]", "blinds_or_straddles = [40000, 80000, 160000, 0, 0]"),
            "straddles",
        ),
        (("min_bet = 80000", "min_bet = 100000"), "minimum bet"),
        (("antes = [0, 120000, 0, 0, 0]", "antes = [10, 120000, 0, 0, 0]"), "antes"),
        (("starting_stacks = [7380000", "starting_stacks = [7380000.5"), "whole number"),
        (("'p4 cbr 170000'", "'p4 cbr 100000'"), "action 7 .* 160000 at least"),
        (("'p2 sm Js8h'", "'p2 sd'"), "does not exist"),
        (("'p4 cbr 170000'", "'# a comment', 'p4 cbr lots'"), "action 8 .*not an amount"),
    ],
)
def test_replay_explains_what_it_cannot_play(change: tuple[str, str], message: str) -> None:
    text = (FIXTURES / "wsop-2023-43-5" / "1.phh").read_text()
    assert change[0] in text
    with pytest.raises(ReplayError, match=message):
        replay(loads(text.replace(*change)))


# ------------------------------------------------------------------------------------------------ CLI


def test_cli_phh_replay_prints_one_json_line_per_file(capsys: pytest.CaptureFixture[str]) -> None:
    good = FIXTURES / "wsop-2023-43-5" / "1.phh"
    bad = FIXTURES / "wsop-2019-42-3-00-01-07-missing-fold.phh"
    status = main(["phh", "replay", str(good), str(bad), str(FIXTURES / "missing.phh")])
    lines = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert status == 1
    assert lines[0] == {"file": str(good), "finishing_stacks": [7_340_000, 3_775_000, 5_110_000, 8_935_000, 4_545_000]}
    assert lines[1]["file"] == str(bad) and "seat 8's turn" in lines[1]["error"]
    assert "No such file" in lines[2]["error"]


def test_cli_runs_as_a_program() -> None:
    path = FIXTURES / "pluribus" / "102-0.phh"
    completed = subprocess.run(
        [sys.executable, "-m", "table_engine.cli", "phh", "replay", str(path)],
        capture_output=True,
        text=True,
        check=True,
    )
    assert json.loads(completed.stdout) == {
        "file": str(path),
        "finishing_stacks": [10113, 9775, 10000, 10000, 10112, 10000],
    }


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
