"""The base of every event payload, and the registry that maps an event type to its model.

An event is a fact, named `<service>.<entity>.<past-tense verb>`. Its payload model is the contract: it is
exported to `contracts/` as JSON Schema and AsyncAPI, and a test fails when the two drift apart.
"""

from __future__ import annotations

from typing import Any, ClassVar

from pydantic import BaseModel, ConfigDict

EVENT_TYPES: dict[str, type[Event]] = {}

# Events only their subject may see (a player's hole cards) travel under the routing key `private.<type>`, so
# that consumers of public events (`table.#`) never receive them.
PRIVATE_PREFIX = "private."


class Event(BaseModel):
    """A published fact. Subclasses set `TYPE` (the routing key) and bump `VERSION` on breaking changes."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    TYPE: ClassVar[str]
    VERSION: ClassVar[int] = 1
    #: Only its subject, the payload's `player_id`, may see it (P-1.4). Declared here once: the routing key the
    #: producer publishes under and the gateway's fan-out both follow it, so a new private event is private
    #: everywhere without another list to keep in step.
    PRIVATE: ClassVar[bool] = False

    @classmethod
    def routing_key(cls) -> str:
        """The key it is published under: its type, or `private.<type>`, which no public binding matches."""
        return PRIVATE_PREFIX + cls.TYPE if cls.PRIVATE else cls.TYPE

    @classmethod
    def __pydantic_init_subclass__(cls, **kwargs: Any) -> None:
        # Called once the fields exist (unlike `__init_subclass__`): a private event must name whose it is.
        super().__pydantic_init_subclass__(**kwargs)
        if cls.PRIVATE and "player_id" not in cls.model_fields:
            raise TypeError(f"private event {cls.__name__} has no player_id: nobody could be shown it")

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        event_type = cls.__dict__.get("TYPE")
        if event_type is None:  # an intermediate base class, not a published event
            return
        if event_type in EVENT_TYPES and EVENT_TYPES[event_type] is not cls:
            raise TypeError(f"event type {event_type!r} is declared twice")
        EVENT_TYPES[event_type] = cls


def routing_key_of(event_type: str) -> str:
    """The key a message of `event_type` goes under when its publisher names none: its contract's
    (`Event.routing_key`: private events under `private.<type>`); the type itself for a type without a contract."""
    model = EVENT_TYPES.get(event_type)
    return event_type if model is None else model.routing_key()


class Command(Event):
    """A request addressed to one consumer (e.g. the table-engine shard that owns a table), carried in the same
    envelope as events but published with an explicit routing key instead of its type."""


def model_for(event_type: str) -> type[Event]:
    try:
        return EVENT_TYPES[event_type]
    except KeyError:
        raise KeyError(f"unknown event type {event_type!r}") from None
