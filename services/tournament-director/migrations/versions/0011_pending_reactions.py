"""The internal events raised and not yet reacted to (issue 19: platform_kit.unit_of_work, service/events.py).

Revision ID: 0011
Revises: 0010
"""

import sqlalchemy as sa
from alembic import op
from platform_kit.db import BigIntPK, UtcDateTime

revision = "0011"
down_revision = "0010"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "pending_reactions",
        sa.Column("seq", BigIntPK, primary_key=True, autoincrement=True),
        sa.Column("event_type", sa.String(120), nullable=False),
        sa.Column("payload", sa.Text(), nullable=False),
        sa.Column("created_at", UtcDateTime(), nullable=False),
    )
    op.create_index("ix_pending_reactions_created_at", "pending_reactions", ["created_at"])


def downgrade() -> None:
    op.drop_index("ix_pending_reactions_created_at", "pending_reactions")
    op.drop_table("pending_reactions")
