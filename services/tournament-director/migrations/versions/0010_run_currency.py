"""A run's snapshot keeps its tournament's currency (issue 19): the run announces its finish with the kit's
`tournament.tournament.finished` itself, currency included. Snapshots saved before get it from their tournament;
the downgrade takes it out again.

Revision ID: 0010
Revises: 0009
"""

import json
from collections.abc import Callable
from typing import Any

import sqlalchemy as sa
from alembic import op

revision = "0010"
down_revision = "0009"
branch_labels = None
depends_on = None

_runs = sa.table("runs", sa.column("tournament_id", sa.String), sa.column("state", sa.Text))
_tournaments = sa.table("tournaments", sa.column("tournament_id", sa.String), sa.column("currency", sa.String))


def _rewrite(change: Callable[[dict[str, Any], str], object]) -> None:
    """Apply `change(snapshot, the tournament's currency)` to every run's snapshot."""
    bind = op.get_bind()
    query = sa.select(_runs.c.tournament_id, _runs.c.state, _tournaments.c.currency).join(
        _tournaments, _tournaments.c.tournament_id == _runs.c.tournament_id
    )
    for tournament_id, state, currency in bind.execute(query).all():
        snapshot = json.loads(state)
        change(snapshot, currency)
        bind.execute(
            _runs.update()
            .where(_runs.c.tournament_id == tournament_id)
            .values(state=json.dumps(snapshot, separators=(",", ":")))
        )


def upgrade() -> None:
    _rewrite(lambda snapshot, currency: snapshot.setdefault("currency", currency))


def downgrade() -> None:
    _rewrite(lambda snapshot, _: snapshot.pop("currency", None))
