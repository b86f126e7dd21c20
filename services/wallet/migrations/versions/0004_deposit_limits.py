"""Deposit limits players set on themselves, their history, and an index for summing a player's deposits.

Revision ID: 0004
Revises: 0003
"""

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None

ID = sa.String(100)
BigIntPK = sa.BigInteger().with_variant(sa.Integer(), "sqlite")
INDEX = "ix_operations_player_kind_created"


def upgrade() -> None:
    op.create_table(
        "deposit_limits",
        sa.Column("player_id", ID, nullable=False),
        sa.Column("currency", sa.String(3), nullable=False),
        sa.Column("period", sa.String(8), nullable=False),
        sa.Column("amount", sa.BigInteger, nullable=True),
        sa.Column("pending_amount", sa.BigInteger, nullable=True),
        sa.Column("pending_from", sa.DateTime(timezone=True), nullable=True),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("player_id", "currency", "period"),
    )
    op.create_table(
        "deposit_limit_changes",
        sa.Column("id", BigIntPK, primary_key=True, autoincrement=True),
        sa.Column("player_id", ID, nullable=False),
        sa.Column("currency", sa.String(3), nullable=False),
        sa.Column("period", sa.String(8), nullable=False),
        sa.Column("previous_amount", sa.BigInteger, nullable=True),
        sa.Column("requested_amount", sa.BigInteger, nullable=True),
        sa.Column("changed_by", sa.String(140), nullable=False),
        sa.Column("changed_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("effective_from", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("ix_deposit_limit_changes_player_id", "deposit_limit_changes", ["player_id"])
    # The operations table is large in production: built CONCURRENTLY on PostgreSQL, so postings go on.
    with op.get_context().autocommit_block():
        op.create_index(INDEX, "operations", ["player_id", "kind", "created_at"], postgresql_concurrently=True)


def downgrade() -> None:
    with op.get_context().autocommit_block():
        op.drop_index(INDEX, table_name="operations", postgresql_concurrently=True)
    op.drop_index("ix_deposit_limit_changes_player_id", table_name="deposit_limit_changes")
    op.drop_table("deposit_limit_changes")
    op.drop_table("deposit_limits")
