"""Identities, sessions, API keys and player restrictions.

Revision ID: 0002
Revises: 0001
"""

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None

ID = 32


def upgrade() -> None:
    op.create_table(
        "concessionaires",
        sa.Column("id", sa.String(ID), primary_key=True),
        sa.Column("code", sa.String(40), nullable=False, unique=True),
        sa.Column("name", sa.String(120), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_table(
        "players",
        sa.Column("id", sa.String(ID), primary_key=True),
        sa.Column("nickname", sa.String(20), nullable=False),
        sa.Column("nickname_key", sa.String(20), nullable=False, unique=True),
        sa.Column("email", sa.String(254), nullable=False, unique=True),
        sa.Column("date_of_birth", sa.Date, nullable=False),
        sa.Column("concessionaire_id", sa.String(ID), sa.ForeignKey("concessionaires.id"), nullable=False),
        sa.Column("password_hash", sa.String(200), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("ix_players_concessionaire_id", "players", ["concessionaire_id"])
    op.create_table(
        "staff_members",
        sa.Column("id", sa.String(ID), primary_key=True),
        sa.Column("email", sa.String(254), nullable=False, unique=True),
        sa.Column("role", sa.String(20), nullable=False),
        sa.Column("concessionaire_id", sa.String(ID), sa.ForeignKey("concessionaires.id"), nullable=True),
        sa.Column("password_hash", sa.String(200), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_table(
        "refresh_tokens",
        sa.Column("id", sa.String(ID), primary_key=True),
        sa.Column("family_id", sa.String(ID), nullable=False),
        sa.Column("token_hash", sa.String(64), nullable=False, unique=True),
        sa.Column("subject_role", sa.String(20), nullable=False),
        sa.Column("subject_id", sa.String(ID), nullable=False),
        sa.Column("issued_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("expires_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("used_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("revoked_at", sa.DateTime(timezone=True), nullable=True),
    )
    op.create_index("ix_refresh_tokens_family_id", "refresh_tokens", ["family_id"])
    op.create_index("ix_refresh_tokens_subject", "refresh_tokens", ["subject_role", "subject_id"])
    op.create_table(
        "api_keys",
        sa.Column("id", sa.String(ID), primary_key=True),
        sa.Column("concessionaire_id", sa.String(ID), sa.ForeignKey("concessionaires.id"), nullable=False),
        sa.Column("prefix", sa.String(16), nullable=False, unique=True),
        sa.Column("secret_hash", sa.String(64), nullable=False),
        sa.Column("label", sa.String(80), nullable=False),
        sa.Column("created_by", sa.String(ID), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("revoked_at", sa.DateTime(timezone=True), nullable=True),
    )
    op.create_index("ix_api_keys_concessionaire_id", "api_keys", ["concessionaire_id"])
    op.create_table(
        "player_restrictions",
        sa.Column("id", sa.String(64), primary_key=True),
        sa.Column("player_id", sa.String(ID), sa.ForeignKey("players.id"), nullable=False),
        sa.Column("kind", sa.String(20), nullable=False),
        sa.Column("until", sa.DateTime(timezone=True), nullable=True),
        sa.Column("reason", sa.String(500), nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("ix_player_restrictions_player_id", "player_restrictions", ["player_id"])


def downgrade() -> None:
    for table in ("player_restrictions", "api_keys", "refresh_tokens", "staff_members", "players", "concessionaires"):
        op.drop_table(table)
