"""Chips are conserved: in every completed hand the stacks at the end add up to the stacks at the start, a voided
hand gives every stack back (P-10), and at the end of a tournament the winner holds every chip ever issued —
starting stacks, rebuys and add-ons (P-2.1, P-4).

The facts are the table engine's hand records (start and end stacks per seat, chips set aside by all-in
protection included in the end stacks)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass


@dataclass(frozen=True)
class HandChips:
    hand_id: str
    table_id: str
    status: str  # in_progress | completed | voided
    start: Mapping[int, int]
    end: Mapping[int, int] | None


def hand_problems(hands: Sequence[HandChips]) -> list[str]:
    problems = []
    for hand in hands:
        where = f"hand {hand.hand_id} at {hand.table_id}"
        if hand.status == "in_progress":
            problems.append(f"{where} is still in progress after the tournament ended")
        elif hand.end is None:
            problems.append(f"{where} is {hand.status} without end stacks")
        elif hand.status == "completed" and sum(hand.end.values()) != sum(hand.start.values()):
            problems.append(
                f"{where}: {sum(hand.start.values())} chips at the start, {sum(hand.end.values())} at the end"
            )
        elif hand.status == "voided" and dict(hand.end) != dict(hand.start):
            problems.append(
                f"{where} was voided but its stacks were not restored: {dict(hand.end)} ≠ {dict(hand.start)}"
            )
    return problems


def tournament_chip_problems(tournament_id: str, issued: int, final_hand: HandChips | None) -> list[str]:
    """The last completed hand of a finished tournament ends with one player holding `issued` chips."""
    if final_hand is None or final_hand.end is None:
        return [f"{tournament_id}: no completed hand"]
    holders = {seat: chips for seat, chips in final_hand.end.items() if chips > 0}
    if len(holders) != 1 or sum(holders.values()) != issued:
        return [f"{tournament_id}: the final hand ends with stacks {holders}; {issued} chips were issued to one winner"]
    return []
