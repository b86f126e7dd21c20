"""The ledger: players, accounts, operations, transfers, holds and idempotency keys.

Revision ID: 0002
Revises: 0001
"""

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None

ID = sa.String(100)
BigIntPK = sa.BigInteger().with_variant(sa.Integer(), "sqlite")


def upgrade() -> None:
    op.create_table(
        "players",
        sa.Column("player_id", ID, primary_key=True),
        sa.Column("concessionaire_id", ID, nullable=False),
        sa.Column("registered_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("ix_players_concessionaire_id", "players", ["concessionaire_id"])

    op.create_table(
        "accounts",
        sa.Column("id", BigIntPK, primary_key=True, autoincrement=True),
        sa.Column("kind", sa.String(32), nullable=False),
        sa.Column("owner", ID, nullable=False),
        sa.Column("currency", sa.String(3), nullable=False),
        sa.Column("concessionaire_id", ID, nullable=True),
        sa.Column("may_go_negative", sa.Boolean, nullable=False),
        sa.Column("balance", sa.BigInteger, nullable=False),
        sa.Column("held", sa.BigInteger, nullable=False),
        sa.Column("opened_at", sa.DateTime(timezone=True), nullable=False),
        sa.UniqueConstraint("kind", "owner", "currency", name="uq_accounts_key"),
        sa.CheckConstraint("held >= 0", name="ck_accounts_held_not_negative"),
        sa.CheckConstraint("may_go_negative OR balance - held >= 0", name="ck_accounts_no_overdraft"),
    )
    op.create_index("ix_accounts_concessionaire_id", "accounts", ["concessionaire_id"])
    op.create_index(
        "uq_accounts_one_escrow_per_tournament",
        "accounts",
        ["owner"],
        unique=True,
        postgresql_where=sa.text("kind = 'tournament_escrow'"),
        sqlite_where=sa.text("kind = 'tournament_escrow'"),
    )

    op.create_table(
        "operations",
        sa.Column("id", BigIntPK, primary_key=True, autoincrement=True),
        sa.Column("kind", sa.String(32), nullable=False),
        sa.Column("currency", sa.String(3), nullable=False),
        sa.Column("tournament_id", ID, nullable=True),
        sa.Column("draw_id", ID, nullable=True),
        sa.Column("player_id", ID, nullable=True),
        sa.Column("concessionaire_id", ID, nullable=True),
        sa.Column("reference", sa.String(200), nullable=True),
        sa.Column("tax_base", sa.BigInteger, nullable=True),
        sa.Column("reverses_operation_id", sa.BigInteger, sa.ForeignKey("operations.id"), nullable=True, unique=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("ix_operations_tournament_id", "operations", ["tournament_id"])
    op.create_index("ix_operations_draw_id", "operations", ["draw_id"])

    op.create_table(
        "transfers",
        sa.Column("id", BigIntPK, primary_key=True, autoincrement=True),
        sa.Column("operation_id", sa.BigInteger, sa.ForeignKey("operations.id"), nullable=False),
        sa.Column("debit_account_id", sa.BigInteger, sa.ForeignKey("accounts.id"), nullable=False),
        sa.Column("credit_account_id", sa.BigInteger, sa.ForeignKey("accounts.id"), nullable=False),
        sa.Column("amount", sa.BigInteger, nullable=False),
        sa.Column("purpose", sa.String(40), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.CheckConstraint("amount > 0", name="ck_transfers_amount_positive"),
        sa.CheckConstraint("debit_account_id <> credit_account_id", name="ck_transfers_two_accounts"),
    )
    op.create_index("ix_transfers_operation_id", "transfers", ["operation_id"])
    op.create_index("ix_transfers_debit", "transfers", ["debit_account_id", "id"])
    op.create_index("ix_transfers_credit", "transfers", ["credit_account_id", "id"])

    op.create_table(
        "holds",
        sa.Column("id", BigIntPK, primary_key=True, autoincrement=True),
        sa.Column("account_id", sa.BigInteger, sa.ForeignKey("accounts.id"), nullable=False),
        sa.Column("destination_account_id", sa.BigInteger, sa.ForeignKey("accounts.id"), nullable=False),
        sa.Column("amount", sa.BigInteger, nullable=False),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("reference", sa.String(200), nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("expires_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("resolved_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("posted_amount", sa.BigInteger, nullable=True),
        sa.Column("operation_id", sa.BigInteger, sa.ForeignKey("operations.id"), nullable=True),
        sa.CheckConstraint("amount > 0", name="ck_holds_amount_positive"),
    )
    op.create_index("ix_holds_account_id", "holds", ["account_id"])
    op.create_index("ix_holds_status_expires_at", "holds", ["status", "expires_at"])

    op.create_table(
        "idempotency_keys",
        sa.Column("scope", sa.String(120), nullable=False),
        sa.Column("key", sa.String(200), nullable=False),
        sa.Column("fingerprint", sa.String(64), nullable=False),
        sa.Column("status_code", sa.Integer, nullable=True),
        sa.Column("response", sa.Text, nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("scope", "key"),
    )


def downgrade() -> None:
    for table in ("idempotency_keys", "holds", "transfers", "operations", "accounts", "players"):
        op.drop_table(table)
