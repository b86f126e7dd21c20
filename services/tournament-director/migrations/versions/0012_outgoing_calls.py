"""Money steps become the kit's outgoing calls (issue 19: platform_kit.outgoing_calls): every row of
`money_steps` moves to `outgoing_calls` with its id, key, request, status, answer and attempts unchanged — a
step pending at the upgrade is made again under the same key with the same request, so the wallet answers it
once. Its tournament becomes the call's group, its kind the call's operation; the player and the caller's
Idempotency-Key stay the director's own columns.

Revision ID: 0012
Revises: 0011
"""

import sqlalchemy as sa
from alembic import op
from platform_kit.db import BigIntPK, UtcDateTime
from platform_kit.outgoing_calls import outgoing_calls_table

revision = "0012"
down_revision = "0011"
branch_labels = None
depends_on = None

_SAME = ("idempotency_key", "path", "body", "status", "attempts", "answer", "refusal_code", "created_at")
_OWN = ("player_id", "client_key", "updated_at")
#: money_steps column -> outgoing_calls column, for those renamed.
_RENAMED = {"step_id": "call_id", "tournament_id": "group_key", "kind": "operation"}


def _calls(metadata: sa.MetaData) -> sa.Table:
    return outgoing_calls_table(
        metadata, sa.Column("player_id", sa.String(64), nullable=True), sa.Column("client_key", sa.String(200))
    )


def _steps(metadata: sa.MetaData) -> sa.Table:
    return sa.Table(
        "money_steps",
        metadata,
        sa.Column("step_id", BigIntPK, primary_key=True, autoincrement=True),
        sa.Column("tournament_id", sa.String(64), nullable=False),
        sa.Column("player_id", sa.String(64), nullable=True),
        sa.Column("kind", sa.String(30), nullable=False),
        sa.Column("idempotency_key", sa.String(200), nullable=False, unique=True),
        sa.Column("client_key", sa.String(200), nullable=True),
        sa.Column("path", sa.String(300), nullable=False),
        sa.Column("body", sa.Text(), nullable=False),
        sa.Column("status", sa.String(10), nullable=False),
        sa.Column("attempts", sa.Integer(), nullable=False),
        sa.Column("answer", sa.Text(), nullable=True),
        sa.Column("refusal_code", sa.String(80), nullable=True),
        sa.Column("created_at", UtcDateTime(), nullable=False),
        sa.Column("updated_at", UtcDateTime(), nullable=False),
        sa.Index("ix_money_steps_status", "status"),
        sa.Index("ix_money_steps_tournament_id", "tournament_id"),
    )


def upgrade() -> None:
    bind = op.get_bind()
    metadata = sa.MetaData()
    calls, steps = _calls(metadata), _steps(metadata)
    calls.create(bind)
    names = [*_SAME, *_OWN, *_RENAMED]
    moved = sa.select(*(steps.c[name] for name in names), sa.literal("wallet"))
    targets = [*_SAME, *_OWN, *_RENAMED.values(), "target"]
    op.execute(calls.insert().from_select(targets, moved))
    _continue_ids(bind, "outgoing_calls", "call_id")
    steps.drop(bind)


def downgrade() -> None:
    bind = op.get_bind()
    metadata = sa.MetaData()
    calls, steps = _calls(metadata), _steps(metadata)
    steps.create(bind)
    back = [*_SAME, *_OWN, *_RENAMED.values()]
    op.execute(steps.insert().from_select([*_SAME, *_OWN, *_RENAMED], sa.select(*(calls.c[n] for n in back))))
    _continue_ids(bind, "money_steps", "step_id")
    calls.drop(bind)


def _continue_ids(bind: sa.Connection, table: str, column: str) -> None:
    """PostgreSQL: the next id after the rows moved in with theirs (SQLite takes the highest by itself)."""
    if bind.dialect.name == "postgresql":
        op.execute(
            f"SELECT setval(pg_get_serial_sequence('{table}', '{column}'), COALESCE(MAX({column}), 0) + 1, false) FROM {table}"
        )
