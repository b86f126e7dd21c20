"""Event contracts: one module per producing service, all registered in `EVENT_TYPES`.

Importing this package imports every producer's module, so the registry is complete wherever it is used.
"""

from platform_kit.events import gateway, rating, table, totalizator, tournament, wallet
from platform_kit.events.base import EVENT_TYPES, Command, Event, model_for

__all__ = [
    "EVENT_TYPES",
    "Command",
    "Event",
    "gateway",
    "model_for",
    "rating",
    "table",
    "totalizator",
    "tournament",
    "wallet",
]
