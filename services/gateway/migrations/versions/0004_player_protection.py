"""Player protection: self-exclusion, session time settings and their history (issue 17).

Revision ID: 0004
Revises: 0003
"""

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None

ID = 32
WHEN = sa.DateTime(timezone=True)
SEQ = sa.BigInteger().with_variant(sa.Integer(), "sqlite")


def upgrade() -> None:
    op.create_table(
        "player_protection",
        sa.Column("player_id", sa.String(ID), sa.ForeignKey("players.id"), primary_key=True),
        sa.Column("exclusion_term", sa.String(12), nullable=True),
        sa.Column("excluded_from", WHEN, nullable=True),
        sa.Column("excluded_until", WHEN, nullable=True),
        sa.Column("reality_check_minutes", sa.Integer, nullable=True),
        sa.Column("session_limit_minutes", sa.Integer, nullable=True),
        sa.Column("session_started_at", WHEN, nullable=True),
        sa.Column("updated_at", WHEN, nullable=False),
    )
    op.create_table(
        "protection_changes",
        sa.Column("id", SEQ, primary_key=True, autoincrement=True),
        sa.Column("player_id", sa.String(ID), sa.ForeignKey("players.id"), nullable=False),
        sa.Column("setting", sa.String(30), nullable=False),
        sa.Column("value", sa.String(40), nullable=True),
        sa.Column("changed_by", sa.String(80), nullable=False),
        sa.Column("changed_at", WHEN, nullable=False),
        sa.Column("effective_from", WHEN, nullable=False),
        sa.Column("effective_until", WHEN, nullable=True),
    )
    op.create_index("ix_protection_changes_player_id", "protection_changes", ["player_id"])


def downgrade() -> None:
    op.drop_index("ix_protection_changes_player_id", table_name="protection_changes")
    op.drop_table("protection_changes")
    op.drop_table("player_protection")
