"""The kit's outbox and inbox tables.

Revision ID: 0001
Revises:
"""

from alembic import op
from platform_kit.migrations import create_messaging_tables, drop_messaging_tables

revision = "0001"
down_revision = None
branch_labels = None
depends_on = None


def upgrade() -> None:
    create_messaging_tables(op)


def downgrade() -> None:
    drop_messaging_tables(op)
