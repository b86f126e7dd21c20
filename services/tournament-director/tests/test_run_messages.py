"""The run's messages stay aligned with the bus contracts they map onto (platform_kit.events)."""

from __future__ import annotations

import dataclasses
from datetime import UTC, datetime

import pytest
from platform_kit.events import table as bus_table
from platform_kit.events import tournament as bus_tournament
from pydantic import BaseModel
from tournament_director.domain import run_messages as run
from tournament_director.domain.jackpots import HandCategory
from tournament_director.domain.kinds import BettingStructure

#: Run message -> bus model, and the bus fields the run leaves to the service (documented in run_messages).
PAIRS: list[tuple[type, type[BaseModel], set[str]]] = [
    (run.SeatedPlayer, bus_table.SeatedPlayer, set()),
    (run.Level, bus_table.Level, set()),
    (run.OpenTable, bus_table.OpenTable, {"action_seconds", "time_bank_seconds", "disconnect_policy"}),
    (run.SeatPlayer, bus_table.SeatPlayer, set()),
    (run.UnseatPlayer, bus_table.UnseatPlayer, set()),
    (run.AddChips, bus_table.AddChips, set()),
    (run.StartHand, bus_table.StartHand, set()),
    (run.CloseTable, bus_table.CloseTable, set()),
    (run.SeatResult, bus_table.SeatResult, set()),
    (run.PotResult, bus_table.PotResult, set()),
    (run.ShownHand, bus_table.ShownHand, {"cards"}),
    (run.HandCompleted, bus_table.HandCompleted, {"tournament_id", "board"}),
    (run.TournamentStarted, bus_tournament.TournamentStarted, set()),
    (run.LevelChanged, bus_tournament.LevelChanged, set()),
    (run.TableBroken, bus_tournament.TableBroken, set()),
    (run.PlayerMoved, bus_tournament.PlayerMoved, set()),
    (run.PlayerEliminated, bus_tournament.PlayerEliminated, set()),
    (run.RankedPlayer, bus_tournament.RankedPlayer, set()),
    (run.TournamentFinished, bus_tournament.TournamentFinished, {"currency"}),
    (run.Refund, bus_tournament.Refund, set()),
    (run.TournamentCancelled, bus_tournament.TournamentCancelled, set()),
]


@pytest.mark.parametrize(("message", "model", "left_to_service"), PAIRS, ids=[pair[0].__name__ for pair in PAIRS])
def test_run_messages_use_the_bus_contracts_field_names(
    message: type, model: type[BaseModel], left_to_service: set[str]
) -> None:
    ours = {field.name for field in dataclasses.fields(message)}
    assert ours == set(model.model_fields) - left_to_service


def _to_bus(value: object) -> object:
    """What the service does: dataclasses to dicts, tuples to lists, times to ISO strings."""
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {field.name: _to_bus(getattr(value, field.name)) for field in dataclasses.fields(value)}
    if isinstance(value, tuple):
        return [_to_bus(item) for item in value]
    if isinstance(value, datetime):
        return value.isoformat()
    return value


def test_run_messages_validate_as_bus_payloads() -> None:
    opened = run.OpenTable("t.1.1", "t", 9, BettingStructure.NO_LIMIT, (run.SeatedPlayer(1, "a", 3_000),))
    bus_table.OpenTable.model_validate(_to_bus(opened))
    start = run.StartHand("t.1.1", 1, run.Level(10, 20))
    bus_table.StartHand.model_validate(_to_bus(start))
    level = run.LevelChanged("t", 2, 15, 30, 0, datetime(2025, 1, 1, tzinfo=UTC))
    bus_tournament.LevelChanged.model_validate(_to_bus(level))
    shown = _to_bus(run.ShownHand(1, "a", HandCategory.FOUR_OF_A_KIND))
    assert isinstance(shown, dict)
    bus_table.ShownHand.model_validate({**shown, "category": "four_of_a_kind", "cards": ["As", "Ad"]})
    assert run.hand_category("four_of_a_kind") is HandCategory.FOUR_OF_A_KIND
    assert run.hand_category("one_pair") is run.hand_category("pair") is HandCategory.PAIR
