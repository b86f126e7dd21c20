"""Settings of the table-engine service: the common fields under the `TABLE_ENGINE_` prefix (docs/configuration.md)."""

import re

from platform_kit.settings import ServiceSettings, service_config
from pydantic import Field, model_validator

_TRAILING_NUMBER = re.compile(r"(\d+)$")
#: The least pause between hands a deployed table may have: a table must never deal as fast as the shard can.
MIN_DEPLOYED_HAND_PAUSE_SECONDS = 1.0


class Settings(ServiceSettings):
    model_config = service_config("table-engine")
    service_name: str = "table-engine"
    shard_name: str = Field(
        "",
        description="This process's shard, e.g. `table-engine-2` (the StatefulSet pod name): the trailing number "
        "is the shard index (0 when there is none). The shard consumes the command queue "
        "`table-engine.shard-<index>` and owns the tables with crc32(table id) mod the shard count "
        "(`TABLE_ENGINE_TABLE_ENGINE_SHARDS`, which must exceed the index) = index.",
    )
    timer_interval_seconds: float = Field(
        0.25,
        gt=0,
        description="How often the action clocks are checked for a player whose time has run out, and the "
        "tables for a hand whose pause is over.",
    )
    hand_pause_seconds: float = Field(
        2.0,
        ge=0,
        description="The least time from the end of a hand to the deal of the next at the same table: what a "
        "client needs to show the showdown and the pot going to its winner. A StartHand arriving sooner is kept "
        "and dealt when the pause is over, so a table's pace never depends on how fast the shard deals: a table "
        f"where every player sits out deals at most 60 / this many hands a minute. At least "
        f"{MIN_DEPLOYED_HAND_PAUSE_SECONDS:g} s outside standalone mode; only in-process tests on a frozen clock "
        "go lower.",
    )

    @property
    def shard_index(self) -> int:
        match = _TRAILING_NUMBER.search(self.shard_name)
        return int(match.group(1)) if match else 0

    @model_validator(mode="after")
    def _deployed_tables_pause(self) -> "Settings":
        if not self.standalone and self.hand_pause_seconds < MIN_DEPLOYED_HAND_PAUSE_SECONDS:
            raise ValueError(
                f"hand_pause_seconds {self.hand_pause_seconds:g} is under {MIN_DEPLOYED_HAND_PAUSE_SECONDS:g} s: "
                "a deployed table would deal as fast as the shard can"
            )
        return self

    @model_validator(mode="after")
    def _shard_exists(self) -> "Settings":
        if self.shard_index >= self.table_engine_shards:
            raise ValueError(
                f"shard {self.shard_index} (from shard_name {self.shard_name!r}) does not exist: "
                f"there are {self.table_engine_shards} shards"
            )
        return self
