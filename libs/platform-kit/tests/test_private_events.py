"""P-1.4: whether an event is private is declared once, on its contract class, and decides its routing key."""

import pytest
from platform_kit.bus import topic_matches
from platform_kit.events import EVENT_TYPES
from platform_kit.events.base import Event
from platform_kit.events.table import ActionRejected, ContributionAccepted, HoleCardsDealt, PrivateTableEvent

PUBLIC_BINDINGS = ("table.#", "tournament.#", "totalizator.#", "wallet.#", "rating.#")


def test_p1_4_hole_cards_refusals_and_deck_receipts_are_the_private_events() -> None:
    """A player's deck contribution is acknowledged to them alone; the values are revealed with the hand's seed,
    once it has ended (docs/fair-deal.md)."""
    assert {event_type for event_type, model in EVENT_TYPES.items() if model.PRIVATE} == {
        HoleCardsDealt.TYPE,
        ActionRejected.TYPE,
        ContributionAccepted.TYPE,
    }


def test_p1_4_a_private_table_event_is_declared_by_its_base_class_which_names_its_recipient() -> None:
    """`PrivateTableEvent` is the one declaration: it makes the event private (its routing key) and says whom
    it is for (the gateway's fan-out), so the two cannot disagree."""
    assert {model for model in EVENT_TYPES.values() if model.PRIVATE} == {
        model for model in EVENT_TYPES.values() if issubclass(model, PrivateTableEvent)
    }
    hole = HoleCardsDealt(table_id="t-1", hand_id="h-1", player_id="p1", seat=1, cards=["As", "Kd"])
    assert HoleCardsDealt.recipient(hole.model_dump()) == "p1"


@pytest.mark.parametrize("event_type", sorted(EVENT_TYPES))
def test_p1_4_no_public_binding_matches_the_routing_key_of_a_private_event(event_type: str) -> None:
    model = EVENT_TYPES[event_type]
    matched = [pattern for pattern in PUBLIC_BINDINGS if topic_matches(pattern, model.routing_key())]
    if model.PRIVATE:
        assert matched == [] and "player_id" in model.model_fields
    else:
        assert model.routing_key() == event_type


def test_a_private_event_that_names_nobody_is_refused_when_declared() -> None:
    with pytest.raises(TypeError, match="player_id"):

        class Whispered(Event):  # no TYPE: never registered, whatever happens
            PRIVATE = True
            text: str


async def test_p1_4_a_private_event_published_without_a_key_goes_under_its_declared_one() -> None:
    """The transports' default key is the contract's, not the bare type: hole cards published by hand (a test,
    a tool) never reach a public subscription."""
    from platform_kit.bus import Envelope, InMemoryBus

    bus = InMemoryBus()
    public: list[str] = []
    owner: list[str] = []

    async def to_public(envelope: Envelope) -> None:
        public.append(envelope.type)

    async def to_owner(envelope: Envelope) -> None:
        owner.append(envelope.type)

    await bus.subscribe("public", ["table.#"], to_public)
    await bus.subscribe("owner", ["private.table.#"], to_owner)
    await bus.start()
    hole = HoleCardsDealt(table_id="t-1", hand_id="h-1", player_id="p1", seat=1, cards=["As", "Kd"])
    await bus.publish(Envelope.wrap(hole, producer="test").outgoing())
    await bus.drain()
    await bus.close()
    assert (public, owner, [key for key, _ in bus.published]) == (
        [],
        [HoleCardsDealt.TYPE],
        ["private.table.hole_cards.dealt"],
    )
