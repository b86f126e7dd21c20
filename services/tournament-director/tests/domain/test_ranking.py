"""The elimination log (P-2.1–P-2.4, P-12.3, P-12.5)."""

from itertools import pairwise

import pytest
from hypothesis import given
from hypothesis import strategies as st
from tournament_director.domain.ranking import Bust, EliminationLog, RankGroup, RankingError, seats_from_button


def _log(*players: str) -> EliminationLog:
    return EliminationLog(players)


def _positions(log: EliminationLog) -> dict[str, tuple[int, ...]]:
    return {player: tuple(group.positions) for group in log.final_ranking().groups for player in group.players}


def test_p2_1_later_bust_ranks_higher() -> None:
    log = _log("a", "b", "c", "d")
    assert log.record_busts([Bust("d", 500, 3)]) == (RankGroup(4, ("d",)),)
    assert log.record_busts([Bust("b", 900, 1)]) == (RankGroup(3, ("b",)),)
    log.record_busts([Bust("a", 2000, 0)])
    assert [group.players for group in log.final_ranking().groups] == [("c",), ("a",), ("b",), ("d",)]
    assert log.final_ranking().position_of("c") == 1


def test_p2_2_same_hand_more_chips_at_hand_start_ranks_higher() -> None:
    log = _log("a", "b", "c", "d", "e")
    groups = log.record_busts([Bust("a", 300, 0), Bust("b", 1200, 4), Bust("c", 800, 2)])
    assert groups == (RankGroup(3, ("b",)), RankGroup(4, ("c",)), RankGroup(5, ("a",)))


def test_p2_3_same_chips_button_ranks_highest_then_clockwise() -> None:
    log = _log("a", "b", "c", "d")
    groups = log.record_busts([Bust("a", 500, 2), Bust("b", 500, 0), Bust("c", 500, 1)])
    assert [group.players for group in groups] == [("b",), ("c",), ("a",)]


def test_p2_3_distance_is_clockwise_from_the_button() -> None:
    assert seats_from_button(button_seat=7, seat=7, seats_per_table=9) == 0
    assert seats_from_button(button_seat=7, seat=9, seats_per_table=9) == 2
    assert seats_from_button(button_seat=7, seat=1, seats_per_table=9) == 3


def test_p2_4_hand_for_hand_busts_across_tables_tie_and_share() -> None:
    log = _log("w", "x", "y", "z", "v")
    # Round of hand-for-hand: x (table 2) and y (table 1) both had 400 chips and sat 1 left of their button;
    # z had fewer chips.
    groups = log.record_busts([Bust("x", 400, 1, table_id=2), Bust("y", 400, 1, table_id=1), Bust("z", 100, 0, 3)])
    # Tied players listed in ascending table number (the order of their indivisible cents).
    assert groups == (RankGroup(3, ("y", "x")), RankGroup(5, ("z",)))
    log.record_busts([Bust("v", 900, 2)])
    assert _positions(log) == {"w": (1,), "v": (2,), "y": (3, 4), "x": (3, 4), "z": (5,)}


def test_p2_4_across_tables_ranked_by_chips_then_distance_at_each_own_table() -> None:
    log = _log("a", "b", "c", "d")
    groups = log.record_busts([Bust("a", 400, 3, table_id=1), Bust("b", 400, 1, table_id=2)])
    assert groups == (RankGroup(3, ("b",)), RankGroup(4, ("a",)))


def test_p12_5_disqualified_rank_below_everyone_else() -> None:
    log = _log("a", "b", "c", "d", "e")
    log.record_busts([Bust("e", 100, 0)])
    log.disqualify("b")  # still in when disqualified
    log.record_busts([Bust("d", 100, 0)])
    log.disqualify("e")  # already busted: moves below everyone not disqualified
    log.record_busts([Bust("c", 100, 0)])
    ranking = log.final_ranking()
    # Non-disqualified: a 1st, c 2nd, d 3rd; then the disqualified, the earlier disqualified lower.
    assert ranking.players == ("a", "c", "d", "e", "b")
    assert ranking.position_of("b") == 5


def test_p12_5_a_later_disqualification_moves_busted_players_up() -> None:
    log = _log("a", "b", "c", "d")
    assert log.record_busts([Bust("d", 100, 0)])[0].first_position == 4
    log.disqualify("a")
    log.record_busts([Bust("c", 100, 0)])
    assert log.final_ranking().players == ("b", "c", "d", "a")


def test_p12_3_penalty_moves_a_player_down_and_the_passed_players_up() -> None:
    log = _log("a", "b", "c", "d", "e")
    for player in ("e", "d", "c", "b"):
        log.record_busts([Bust(player, 100, 0)])
    log.penalize("b", 2)
    assert log.final_ranking().players == ("a", "c", "d", "b", "e")


def test_p12_3_penalty_counts_tie_mates_and_lands_below_a_whole_tie() -> None:
    log = _log("w", "p", "q", "r", "s", "t")
    log.record_busts([Bust("t", 100, 0)])
    log.record_busts([Bust("r", 100, 1, table_id=1), Bust("s", 100, 1, table_id=2)])  # r and s tied 4th–5th
    log.record_busts([Bust("p", 300, 0, table_id=1), Bust("q", 300, 0, table_id=2)])  # p and q tied 2nd–3rd
    log.penalize("p", 2)  # passes q, then lands inside the r–s tie: goes below it
    groups = log.final_ranking().groups
    assert [(group.first_position, group.players) for group in groups] == [
        (1, ("w",)),
        (2, ("q",)),
        (3, ("r", "s")),
        (5, ("p",)),
        (6, ("t",)),
    ]


def test_p12_3_penalty_never_goes_into_the_disqualified_block_and_winner_can_be_penalised() -> None:
    log = _log("a", "b", "c")
    log.disqualify("c")
    log.penalize("a", 5)
    log.record_busts([Bust("b", 100, 0)])
    assert log.final_ranking().players == ("b", "a", "c")


def test_p10_standing_of_eliminated_for_a_cancellation() -> None:
    log = _log("a", "b", "c", "d", "e")
    log.record_busts([Bust("e", 100, 0)])
    log.record_busts([Bust("d", 100, 0)])
    log.disqualify("c")
    log.penalize("a", 1)  # still in: waits for the final ranking
    assert log.standing_of_eliminated() == (RankGroup(3, ("d",)), RankGroup(4, ("e",)), RankGroup(5, ("c",)))


@pytest.mark.parametrize(
    "busts",
    [
        [],
        [Bust("z", 100, 0)],  # never entered
        [Bust("a", 100, 0), Bust("a", 200, 1)],  # twice
        [Bust("a", 100, 0), Bust("b", 200, 0)],  # same seat distance at one table
        [Bust("a", 100, 0), Bust("b", 200, 1), Bust("c", 300, 2)],  # nobody left
    ],
)
def test_impossible_busts_are_refused(busts: list[Bust]) -> None:
    with pytest.raises(RankingError):
        _log("a", "b", "c").record_busts(busts)


def test_a_bust_needs_chips_at_hand_start_and_the_tournament_must_be_over() -> None:
    with pytest.raises(RankingError):
        Bust("a", 0, 0)
    with pytest.raises(RankingError):
        _log("a", "b").final_ranking()


@given(st.integers(2, 40), st.data())
def test_p2_p12_final_ranking_lists_every_player_exactly_once(entrants: int, data: st.DataObject) -> None:
    players = [f"p{i}" for i in range(entrants)]
    log = EliminationLog(players)
    disqualified: list[str] = []
    while len(log.remaining) > 1:
        remaining = sorted(log.remaining)
        action = data.draw(st.sampled_from(["bust", "bust", "bust", "disqualify", "penalize"]))
        if action == "disqualify":
            disqualified.append(data.draw(st.sampled_from(remaining)))
            log.disqualify(disqualified[-1])
        elif action == "penalize":
            candidates = [player for player in players if player not in disqualified]
            log.penalize(data.draw(st.sampled_from(candidates)), data.draw(st.integers(1, 3)))
        else:
            out = data.draw(st.permutations(remaining))[: data.draw(st.integers(1, len(remaining) - 1))]
            # Two tables, pairs at the same distance from their buttons: equal chips make P-2.4 ties.
            log.record_busts(
                [
                    Bust(player, data.draw(st.integers(1, 3)), seats_from_button=index // 2, table_id=index % 2)
                    for index, player in enumerate(out)
                ]
            )
    ranking = log.final_ranking()
    assert sorted(ranking.players) == sorted(players)
    assert ranking.groups[0].first_position == 1
    for upper, lower in pairwise(ranking.groups):
        assert lower.first_position == upper.last_position + 1
    # P-12.5: the disqualified fill the bottom, the earliest disqualified last.
    assert list(ranking.players[len(players) - len(disqualified) :]) == list(reversed(disqualified))
