"""The pace of play: when a table's last hand ended, and the StartHand it keeps until the pause after it is over.

Revision ID: 0003
Revises: 0002
"""

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column("tables", sa.Column("hand_ended_at", sa.DateTime(timezone=True), nullable=True))
    op.add_column("tables", sa.Column("next_hand", sa.JSON, nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("tables") as batch:
        batch.drop_column("next_hand")
        batch.drop_column("hand_ended_at")
