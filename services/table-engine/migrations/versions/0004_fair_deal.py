"""Provably fair deals: each hand's secret seed and contributions, and the table's last revealed seed.

`hands.seed` (hex) and `hands.contributions` derive the hand's deck (domain/fair_deal.py); hands dealt before
this revision have neither. `tables.last_seed` is the seed of the table's last ended hand, already revealed: the
public contribution to the next hand.

Revision ID: 0004
Revises: 0003
"""

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column("hands", sa.Column("seed", sa.String(64), nullable=True))
    op.add_column("hands", sa.Column("contributions", sa.JSON, nullable=True))
    op.add_column("tables", sa.Column("last_seed", sa.String(64), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("tables") as batch:
        batch.drop_column("last_seed")
    with op.batch_alter_table("hands") as batch:
        batch.drop_column("contributions")
        batch.drop_column("seed")
