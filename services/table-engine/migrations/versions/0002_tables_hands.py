"""Tables and seats, hand records (deck and actions for audit and histories), protections used, chat bans.

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
        "tables",
        sa.Column("table_id", ID, primary_key=True),
        sa.Column("tournament_id", ID, nullable=True),
        sa.Column("shard", sa.Integer, nullable=False),
        sa.Column("max_seats", sa.Integer, nullable=False),
        sa.Column("betting_structure", sa.String(20), nullable=False),
        sa.Column("action_seconds", sa.Integer, nullable=False),
        sa.Column("time_bank_seconds", sa.Integer, nullable=False),
        sa.Column("disconnect_policy", sa.JSON, nullable=False),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("first_button", sa.Integer, nullable=True),
        sa.Column("positions", sa.JSON, nullable=True),
        sa.Column("level", sa.JSON, nullable=True),
        sa.Column("hand_no", sa.Integer, nullable=False),
        sa.Column("current_hand_id", sa.String(32), nullable=True),
        sa.Column("public_state", sa.JSON, nullable=True),
        sa.Column("opened_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("ix_tables_tournament_id", "tables", ["tournament_id"])
    op.create_index("ix_tables_shard", "tables", ["shard"])

    op.create_table(
        "seats",
        sa.Column("table_id", ID, nullable=False),
        sa.Column("seat", sa.Integer, nullable=False),
        sa.Column("player_id", ID, nullable=False),
        sa.Column("stack", sa.BigInteger, nullable=False),
        sa.Column("sitting_out", sa.Boolean, nullable=False),
        sa.Column("sit_out_reason", sa.String(16), nullable=True),
        sa.Column("connected", sa.Boolean, nullable=False),
        sa.Column("time_bank_ms", sa.BigInteger, nullable=False),
        sa.Column("pending_chips", sa.BigInteger, nullable=False),
        sa.Column("leaving", sa.String(20), nullable=True),
        sa.PrimaryKeyConstraint("table_id", "seat"),
        sa.UniqueConstraint("table_id", "player_id", name="uq_seats_table_player"),
    )

    op.create_table(
        "hands",
        sa.Column("seq", BigIntPK, primary_key=True, autoincrement=True),
        sa.Column("hand_id", sa.String(32), nullable=False, unique=True),
        sa.Column("table_id", ID, nullable=False),
        sa.Column("tournament_id", ID, nullable=True),
        sa.Column("hand_no", sa.Integer, nullable=False),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("level", sa.JSON, nullable=False),
        sa.Column("config", sa.JSON, nullable=False),
        sa.Column("start_stacks", sa.JSON, nullable=False),
        sa.Column("set_aside", sa.JSON, nullable=False),
        sa.Column("actions", sa.JSON, nullable=False),
        sa.Column("deck", sa.String(104), nullable=False),
        sa.Column("end_stacks", sa.JSON, nullable=True),
        sa.Column("started_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("ended_at", sa.DateTime(timezone=True), nullable=True),
    )
    op.create_index("ix_hands_table_id", "hands", ["table_id"])

    op.create_table(
        "protections",
        sa.Column("scope", sa.String(120), nullable=False),
        sa.Column("player_id", ID, nullable=False),
        sa.Column("used", sa.Integer, nullable=False),
        sa.PrimaryKeyConstraint("scope", "player_id"),
    )

    op.create_table(
        "chat_bans",
        sa.Column("sanction_id", ID, primary_key=True),
        sa.Column("player_id", ID, nullable=False),
        sa.Column("kind", sa.String(40), nullable=False),
        sa.Column("starts_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("ends_at", sa.DateTime(timezone=True), nullable=True),
    )
    op.create_index("ix_chat_bans_player_id", "chat_bans", ["player_id"])


def downgrade() -> None:
    op.drop_index("ix_chat_bans_player_id", "chat_bans")
    op.drop_table("chat_bans")
    op.drop_table("protections")
    op.drop_index("ix_hands_table_id", "hands")
    op.drop_table("hands")
    op.drop_table("seats")
    op.drop_index("ix_tables_shard", "tables")
    op.drop_index("ix_tables_tournament_id", "tables")
    op.drop_table("tables")
