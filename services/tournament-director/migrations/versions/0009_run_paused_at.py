"""The pause of a running tournament as a column of its run (issue 14): the lobby lists it with the tournaments
instead of restoring every running tournament's snapshot to read it.

Revision ID: 0009
Revises: 0008
"""

import json
from datetime import datetime

import sqlalchemy as sa
from alembic import op
from platform_kit.db import UtcDateTime

revision = "0009"
down_revision = "0008"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("runs") as batch:
        batch.add_column(sa.Column("paused_at", UtcDateTime(), nullable=True))
    # Runs paused now: a paused run has no clock change due, so only those rows need their snapshot read.
    runs = sa.table(
        "runs",
        sa.column("tournament_id", sa.String),
        sa.column("state", sa.Text),
        sa.column("next_clock_at", UtcDateTime()),
        sa.column("paused_at", UtcDateTime()),
    )
    bind = op.get_bind()
    rows = bind.execute(sa.select(runs.c.tournament_id, runs.c.state).where(runs.c.next_clock_at.is_(None)))
    for tournament_id, state in rows.all():
        snapshot = json.loads(state)
        paused_at = snapshot.get("paused_at")
        if paused_at is None or snapshot["finished_at"] is not None or snapshot["cancelled"]:
            continue
        bind.execute(
            runs.update()
            .where(runs.c.tournament_id == tournament_id)
            .values(paused_at=datetime.fromisoformat(paused_at))
        )


def downgrade() -> None:
    with op.batch_alter_table("runs") as batch:
        batch.drop_column("paused_at")
