"""Payouts and refunds in batches: a batch number per planned payment, fixed before the wallet call is made.

Payments planned before this revision keep no number and are made as before, one call each under their own
key: one of them may already have reached the wallet, and only the same key and request are safe to resend.

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
    with op.batch_alter_table("wallet_transfers") as batch:
        batch.add_column(sa.Column("batch_no", sa.Integer, nullable=True))
    op.create_index("ix_wallet_transfers_draw_batch", "wallet_transfers", ["draw_id", "batch_no"])


def downgrade() -> None:
    # Only with no batch left pending: without its number, a sent batch's payments would be resent one by one.
    op.drop_index("ix_wallet_transfers_draw_batch", "wallet_transfers")
    with op.batch_alter_table("wallet_transfers") as batch:
        batch.drop_column("batch_no")
