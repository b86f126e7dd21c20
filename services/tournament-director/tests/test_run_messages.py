"""A run speaks the bus contracts themselves (issue 19): every message it returns is a `platform_kit.events`
contract, valid as published, except the one internal `OfferRebuy`, which becomes `tournament.rebuy.offered`
once the service adds its lapse time. Table commands leave with the service's timers, routed to their shard."""

from __future__ import annotations

import dataclasses
from datetime import UTC, datetime, timedelta

import pytest
from platform_kit.events import Event
from platform_kit.events import table as bus_table
from platform_kit.events import tournament as bus_tournament
from tournament_director.adapters.bus_messages import TableTimers, table_command
from tournament_director.domain.entries import Price
from tournament_director.domain.jackpots import HandCategory, hand_category
from tournament_director.domain.kinds import TableMode, TournamentKind
from tournament_director.domain.run_messages import Message, OfferRebuy
from tournament_director.simulation import SimulationOptions, simulate

NOW = datetime(2025, 1, 1, tzinfo=UTC)
REBUY_PRICE = Price(prize_part_cents=2_250, fee_cents=250)
TOURNAMENTS = [
    SimulationOptions(players=30, seed=2, buy_in=REBUY_PRICE, rebuys=True),
    SimulationOptions(players=18, seed=3, kind=TournamentKind.SIT_AND_GO, mode=TableMode.SHOOTOUT),
]


@pytest.mark.parametrize("options", TOURNAMENTS, ids=["rebuy_mtt", "shootout"])
def test_every_message_of_a_whole_tournament_is_a_valid_bus_contract_but_the_rebuy_offer(
    options: SimulationOptions,
) -> None:
    messages: list[Message] = []
    simulate(options, messages.append)
    internal = [message for message in messages if isinstance(message, OfferRebuy)]
    published = [message for message in messages if not isinstance(message, OfferRebuy)]
    assert all(isinstance(message, Event) for message in published)
    for message in published:  # as a consumer reads it off the bus
        assert type(message).model_validate_json(message.model_dump_json()) == message
    kinds = {type(message) for message in published}
    assert {bus_table.OpenTable, bus_table.StartHand, bus_tournament.PlayerEliminated} <= kinds
    assert bus_tournament.TournamentFinished in kinds
    assert bool(internal) == options.rebuys


def test_a_rebuy_offer_is_the_contracts_fields_but_its_lapse_time_and_is_published_with_it() -> None:
    ours = {field.name for field in dataclasses.fields(OfferRebuy)}
    assert ours == set(bus_tournament.RebuyOffered.model_fields) - {"expires_at"}
    offer = OfferRebuy("t", "t.1.1", "p1", 3_000, 2_500)
    offered = offer.offered(NOW + timedelta(seconds=30))
    assert offered == bus_tournament.RebuyOffered(
        tournament_id="t",
        table_id="t.1.1",
        player_id="p1",
        chips=3_000,
        price_cents=2_500,
        expires_at="2025-01-01T00:00:30+00:00",
    )


def test_a_table_opens_with_the_services_timers_and_every_command_goes_to_its_tables_shard() -> None:
    seated = bus_table.SeatedPlayer(seat=1, player_id="a", stack=3_000)
    opened = bus_table.OpenTable(
        table_id="t.1.1", tournament_id="t", max_seats=9, betting_structure="no_limit", seats=[seated]
    )
    sent, key = table_command(opened, TableTimers(action_seconds=15, time_bank_seconds=90), shards=4)
    assert isinstance(sent, bus_table.OpenTable)
    assert (sent.action_seconds, sent.time_bank_seconds) == (15, 90)
    assert sent.model_dump(exclude={"action_seconds", "time_bank_seconds"}) == opened.model_dump(
        exclude={"action_seconds", "time_bank_seconds"}
    )
    assert key == bus_table.command_routing_key(sent, "t.1.1", 4)
    start = bus_table.StartHand(table_id="t.1.1", hand_no=1, level=bus_table.Level(small_blind=10, big_blind=20))
    assert table_command(start, TableTimers(15, 90), shards=4) == (
        start,
        bus_table.command_routing_key(start, "t.1.1", 4),
    )
    assert key.startswith(bus_table.shard_queue(bus_table.shard_for("t.1.1", 4)))


def test_shown_hands_categories_are_read_from_their_bus_names() -> None:
    assert hand_category("four_of_a_kind") is HandCategory.FOUR_OF_A_KIND
    assert hand_category("one_pair") is hand_category("pair") is HandCategory.PAIR
