"""The lobby's schedule kept by staff (issue 17): entries created and disabled from the console.

Revision ID: 0008
Revises: 0007
"""

import sqlalchemy as sa
from alembic import op
from platform_kit.db import UtcDateTime

revision = "0008"
down_revision = "0007"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "lobby_entries",
        sa.Column("key", sa.String(24), primary_key=True),
        sa.Column("concessionaire_id", sa.String(64), nullable=True),
        sa.Column("body", sa.Text(), nullable=False),
        sa.Column("every_minutes", sa.Integer(), nullable=True),
        sa.Column("enabled", sa.Boolean(), nullable=False),
        sa.Column("created_by", sa.String(64), nullable=False),
        sa.Column("created_at", UtcDateTime(), nullable=False),
        sa.Column("disabled_at", UtcDateTime(), nullable=True),
    )


def downgrade() -> None:
    op.drop_table("lobby_entries")
