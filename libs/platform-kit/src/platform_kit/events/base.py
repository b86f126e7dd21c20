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

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        event_type = cls.__dict__.get("TYPE")
        if event_type is None:  # an intermediate base class, not a published event
            return
        if event_type in EVENT_TYPES and EVENT_TYPES[event_type] is not cls:
            raise TypeError(f"event type {event_type!r} is declared twice")
        EVENT_TYPES[event_type] = cls


class Command(Event):
    """A request addressed to one consumer (e.g. the table-engine shard that owns a table), carried in the same
    envelope as events but published with an explicit routing key instead of its type."""


def model_for(event_type: str) -> type[Event]:
    try:
        return EVENT_TYPES[event_type]
    except KeyError:
        raise KeyError(f"unknown event type {event_type!r}") from None
