"""The elimination log: busts in, positions out (P-2.1–P-2.4, P-12.3, P-12.5).

Rules applied
- P-2.1 The later a player busts, the better the position; with N entrants positions run N..1 and the last
  player holding chips is 1st.
- P-2.2 Players who bust in the same hand rank by chips at the start of that hand: more chips, better position.
- P-2.3 Still tied: by clockwise distance from that hand's button — the button ranks best, then the player to
  its left, and so on. On one table two players never share a distance, so a single hand never leaves a tie.
- P-2.4 Busts on different tables are simultaneous only in a hand-for-hand round: the service records each such
  round with one `record_busts` call. The distance is measured at each player's own table; players still tied
  form one `RankGroup` and share the prizes of the positions they occupy together.
- P-12.5 A disqualified player ranks below every player not disqualified. **Interpretation:** among themselves,
  the earlier disqualified ranks lower (as with busts).
- P-12.3 Ranking penalty. **Interpretation:** a penalty of k places puts the player just below the next k
  players under them in the final ranking (a tie-mate counts as a player under them; when the k-th player is
  part of a tie, the penalised player goes below the whole tie). The players passed each move up one place. A
  penalty never moves a player into the disqualified block. Penalties apply in the order they were given.

Busts are recorded only when a player is definitively out: in a rebuy tournament the service first lets the
player rebuy (or not) and records the bust only if they do not. A bust's position is provisional until the end:
a later disqualification or penalty can move it.

Ties and cents: the players of a tied group are listed in ascending table number, which is the order in which
the indivisible cents of their shared prizes are handed out (see `payouts.tied_prize_shares`).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from itertools import groupby

PlayerId = str


class RankingError(ValueError):
    """A bust, disqualification or penalty that cannot be recorded (unknown player, already out, …)."""


@dataclass(frozen=True)
class Bust:
    """A player who went out in a hand, with what P-2.2 and P-2.3 need to rank them."""

    player_id: PlayerId
    #: Chips held at the start of the hand in which the player busted (P-2.2).
    chips_at_hand_start: int
    #: Clockwise distance from that hand's button at the player's own table: 0 = on the button (P-2.3).
    seats_from_button: int
    table_id: int = 0

    def __post_init__(self) -> None:
        if self.chips_at_hand_start <= 0:
            raise RankingError(f"{self.player_id}: a busting player held chips at the start of the hand")
        if self.seats_from_button < 0:
            raise RankingError(f"{self.player_id}: the distance from the button cannot be negative")


def seats_from_button(button_seat: int, seat: int, seats_per_table: int) -> int:
    """Clockwise distance (P-2.3) from the button to `seat`; seats are numbered 1..seats_per_table clockwise."""
    return (seat - button_seat) % seats_per_table


@dataclass(frozen=True)
class RankGroup:
    """Players sharing positions `first_position`..`last_position` (one player unless tied, P-2.4)."""

    first_position: int
    players: tuple[PlayerId, ...]

    @property
    def last_position(self) -> int:
        return self.first_position + len(self.players) - 1

    @property
    def positions(self) -> range:
        return range(self.first_position, self.last_position + 1)


def _numbered(groups: Iterable[Sequence[PlayerId]], first_position: int = 1) -> tuple[RankGroup, ...]:
    numbered = []
    position = first_position
    for players in groups:
        numbered.append(RankGroup(first_position=position, players=tuple(players)))
        position += len(players)
    return tuple(numbered)


@dataclass(frozen=True)
class FinalRanking:
    """Every entrant exactly once, best first."""

    groups: tuple[RankGroup, ...]

    def group_of(self, player_id: PlayerId) -> RankGroup:
        for group in self.groups:
            if player_id in group.players:
                return group
        raise KeyError(player_id)

    def position_of(self, player_id: PlayerId) -> int:
        """The best position the player's group occupies (a tied player's displayed position)."""
        return self.group_of(player_id).first_position

    @property
    def players(self) -> tuple[PlayerId, ...]:
        return tuple(player for group in self.groups for player in group.players)


class EliminationLog:
    """Records busts, disqualifications and penalties of one tournament and derives its ranking."""

    def __init__(self, entrants: Iterable[PlayerId]) -> None:
        self._entrants = tuple(entrants)
        if len(set(self._entrants)) != len(self._entrants):
            raise RankingError("an entrant is listed twice")
        self._remaining = set(self._entrants)
        # Tie groups in elimination order, earliest (worst) first.
        self._busted: list[tuple[PlayerId, ...]] = []
        self._disqualified: list[PlayerId] = []
        self._penalties: list[tuple[PlayerId, int]] = []

    @property
    def remaining(self) -> frozenset[PlayerId]:
        """Players neither busted nor disqualified."""
        return frozenset(self._remaining)

    def record_busts(self, busts: Sequence[Bust]) -> tuple[RankGroup, ...]:
        """Record players who went out together — in one hand on one table, or in one hand-for-hand round
        across tables (P-2.4) — and return their (provisional) positions, best first."""
        self._check_busts(busts)
        ordered = sorted(busts, key=lambda bust: (-bust.chips_at_hand_start, bust.seats_from_button))
        best_first = [
            tuple(bust.player_id for bust in sorted(tied, key=lambda bust: bust.table_id))
            for _, tied in groupby(ordered, key=lambda bust: (bust.chips_at_hand_start, bust.seats_from_button))
        ]
        first_position = len(self._remaining) - len(busts) + 1
        self._busted.extend(reversed(best_first))
        self._remaining.difference_update(bust.player_id for bust in busts)
        return _numbered(best_first, first_position)

    def _check_busts(self, busts: Sequence[Bust]) -> None:
        players = [bust.player_id for bust in busts]
        if not players:
            raise RankingError("no bust to record")
        if len(set(players)) != len(players):
            raise RankingError("a player busts twice in the same hand")
        if not_in := [player for player in players if player not in self._remaining]:
            raise RankingError(f"not in the tournament any more (or never entered): {sorted(not_in)}")
        if len(players) >= len(self._remaining):
            raise RankingError("every remaining player cannot bust: someone won the chips")
        places = [(bust.table_id, bust.seats_from_button) for bust in busts]
        if len(set(places)) != len(places):
            raise RankingError("two busts at the same distance from the button of the same table")

    def disqualify(self, player_id: PlayerId) -> None:
        """P-12.5: the player leaves play and ranks below every player not disqualified."""
        if player_id not in self._entrants:
            raise RankingError(f"{player_id} never entered this tournament")
        if player_id in self._disqualified:
            raise RankingError(f"{player_id} is already disqualified")
        self._remaining.discard(player_id)
        self._busted = [without for group in self._busted if (without := tuple(p for p in group if p != player_id))]
        self._disqualified.append(player_id)

    def penalize(self, player_id: PlayerId, places: int) -> None:
        """P-12.3: move the player `places` places down in the final ranking (rule in the module docstring)."""
        if player_id not in self._entrants or player_id in self._disqualified:
            raise RankingError(f"{player_id} cannot be penalised: not an entrant, or disqualified")
        if places < 1:
            raise RankingError("a ranking penalty is at least one place")
        self._penalties.append((player_id, places))

    def final_ranking(self, *, survivors_share_first: bool = False) -> FinalRanking:
        """The ranking once at most one player still holds chips: every entrant exactly once, best first.

        With `survivors_share_first` the players still in rank together, tied first: a satellite ends when no
        more players are left than it has seats, each a seat whatever their chips (P-3.4)."""
        if len(self._remaining) > 1 and not survivors_share_first:
            raise RankingError(f"{len(self._remaining)} players are still in: the tournament is not over")
        winner = [tuple(sorted(self._remaining))] if self._remaining else []
        ranking = FinalRanking(_numbered(self._ranked(winner)))
        if sorted(ranking.players) != sorted(self._entrants):
            raise AssertionError("the final ranking must list every entrant exactly once")
        return ranking

    def standing_of_eliminated(self) -> tuple[RankGroup, ...]:
        """Positions of the busted and disqualified players now, best first, below the players still in (who
        hold positions 1..len(remaining)) — what a cancellation (P-10) needs. Penalties of players still in
        wait for the final ranking."""
        return _numbered(self._ranked([]), first_position=len(self._remaining) + 1)

    def _ranked(self, top: list[tuple[PlayerId, ...]]) -> list[tuple[PlayerId, ...]]:
        """`top`, then the busted groups best first, with the penalties of the players listed so far applied
        (P-12.3), then the disqualified (P-12.5)."""
        ranked = [*top, *reversed(self._busted)]
        for player_id, places in self._penalties:
            if any(player_id in group for group in ranked):
                ranked = _apply_penalty(ranked, player_id, places)
        ranked.extend((player,) for player in reversed(self._disqualified))
        return ranked


def _apply_penalty(ranked: list[tuple[PlayerId, ...]], player_id: PlayerId, places: int) -> list[tuple[PlayerId, ...]]:
    """Move `player_id` below the next `places` players under them (P-12.3, rule in the module docstring)."""
    index = next(i for i, group in enumerate(ranked) if player_id in group)
    tie_mates = tuple(p for p in ranked[index] if p != player_id)
    rest = [*ranked[:index], *([tie_mates] if tie_mates else []), *ranked[index + 1 :]]
    passed = 0
    insert_at = len(rest)
    for position in range(index, len(rest)):
        passed += len(rest[position])
        if passed >= places:
            insert_at = position + 1
            break
    return [*rest[:insert_at], (player_id,), *rest[insert_at:]]
