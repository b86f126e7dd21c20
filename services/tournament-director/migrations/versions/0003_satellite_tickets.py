"""Satellite seats as tickets (P-3.4): the target a ticket is for, whether the seat's fee is still in the escrow
that backs it, and whether the director registers its holder by itself.

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
    with op.batch_alter_table("tickets") as batch:
        batch.add_column(sa.Column("target_tournament_id", sa.String(64), nullable=True))
        batch.add_column(sa.Column("fee_in_escrow", sa.Boolean, nullable=False, server_default=sa.false()))
        batch.add_column(sa.Column("automatic", sa.Boolean, nullable=False, server_default=sa.false()))
        batch.create_index("ix_tickets_automatic", ["automatic"])


def downgrade() -> None:
    with op.batch_alter_table("tickets") as batch:
        batch.drop_index("ix_tickets_automatic")
        batch.drop_column("automatic")
        batch.drop_column("fee_in_escrow")
        batch.drop_column("target_tournament_id")
