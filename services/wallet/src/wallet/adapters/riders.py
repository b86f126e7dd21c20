"""Writes that ride with a command's last statement: its idempotency key's answer and its events.

A money command ends with the UPDATE of its balances (service/balance_updates.py). On PostgreSQL the answer stored
under the key and the events written to the outbox go in that same statement, as data-modifying CTEs: two round
trips fewer per command, and the rows they write commit (or roll back, with a refused balance change) together
with it. SQLite has no data-modifying CTE: there they are statements of their own, run first (in-process, so no
round trip is saved there anyway).
"""

from __future__ import annotations

import functools
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from platform_kit.outbox import OUTBOX_TABLE
from sqlalchemy import Insert, Result, Update, bindparam, func, select
from sqlalchemy.dialects.postgresql import ARRAY
from sqlalchemy.ext.asyncio import AsyncSession

from wallet.adapters.idempotency import ANSWER
from wallet.adapters.orm import metadata
from wallet.adapters.sql import writes_in_with

_OUTBOX = metadata.tables[OUTBOX_TABLE]
_EVENT_COLUMNS = tuple(column.name for column in _OUTBOX.c if column.name not in ("seq", "published_at"))


@dataclass(frozen=True)
class Riders:
    answer: Mapping[str, Any] | None = None
    """The parameters of `idempotency.ANSWER` (`idempotency.answer`), if the key's answer rides along."""
    events: Sequence[Mapping[str, Any]] = ()
    """Outbox rows (`Outbox.row`), in the order they are to be published."""

    def __bool__(self) -> bool:
        return self.answer is not None or bool(self.events)

    async def execute(
        self, session: AsyncSession, main: Update | None, params: Mapping[str, Any]
    ) -> Result[Any] | None:
        """Run `main` (with `params`; None: no statement of its own) and the riders; returns `main`'s result."""
        if not writes_in_with(session):
            if self.answer is not None:
                await session.execute(ANSWER, self.answer)
            if self.events:
                await session.execute(_OUTBOX.insert(), list(self.events))
            return None if main is None else await session.execute(main, params)
        if main is None and not self:
            return None
        statement = _with_riders(main, self.answer is not None, bool(self.events))
        everything = dict(params) | dict(self.answer or {})
        if self.events:
            everything |= {f"event_{name}": [event[name] for event in self.events] for name in _EVENT_COLUMNS}
        return await session.execute(statement, everything)


@functools.lru_cache(maxsize=512)
def _with_riders(main: Update | None, answered: bool, events: bool) -> Update | Insert:
    """PostgreSQL: `WITH answer AS (UPDATE idempotency_keys …), events AS (INSERT INTO outbox …) <main>`, built
    and compiled once per shape. Without `main`, the answer (or else the events) is the statement itself."""
    riders: list[Update | Insert] = []
    if answered:
        riders.append(ANSWER)
    if events:
        riders.append(_INSERT_EVENTS)
    head: Update | Insert
    head, *riders = riders if main is None else [main, *riders]
    return head.add_cte(*(rider.cte(f"rider_{n}") for n, rider in enumerate(riders)))


def _insert_events() -> Insert:
    """`INSERT INTO outbox SELECT … FROM unnest(the rows' columns as arrays) WITH ORDINALITY ORDER BY ordinality`:
    one statement for any number of events, in their order (a multi-row VALUES would not be cached)."""
    row = (
        func.unnest(*(bindparam(f"event_{name}", type_=ARRAY(_OUTBOX.c[name].type)) for name in _EVENT_COLUMNS))
        .table_valued(*_EVENT_COLUMNS, with_ordinality="number")
        .render_derived("event")
    )
    return _OUTBOX.insert().from_select(
        list(_EVENT_COLUMNS), select(*(row.c[name] for name in _EVENT_COLUMNS)).order_by(row.c.number)
    )


_INSERT_EVENTS = _insert_events()
NO_RIDERS = Riders()
