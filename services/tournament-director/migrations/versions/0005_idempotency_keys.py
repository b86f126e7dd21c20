"""Idempotency-Keys bound to their request: each caller's key, the fingerprint of the request it named and
its first answer (registrations, unregistrations, rebuys, add-ons, cancellations).

Revision ID: 0005
Revises: 0004
"""

import sqlalchemy as sa
from alembic import op
from tournament_director.adapters.orm import UtcDateTime

revision = "0005"
down_revision = "0004"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "idempotency_keys",
        sa.Column("scope", sa.String(200), nullable=False),
        sa.Column("key", sa.String(120), nullable=False),
        sa.Column("fingerprint", sa.String(64), nullable=False),
        sa.Column("claim", sa.String(32), nullable=False),
        sa.Column("claimed_at", UtcDateTime, nullable=False),
        sa.Column("status_code", sa.Integer, nullable=True),
        sa.Column("response", sa.Text, nullable=True),
        sa.Column("created_at", UtcDateTime, nullable=False),
        sa.PrimaryKeyConstraint("scope", "key"),
    )
    op.create_index("ix_idempotency_keys_created_at", "idempotency_keys", ["created_at"])


def downgrade() -> None:
    op.drop_index("ix_idempotency_keys_created_at", table_name="idempotency_keys")
    op.drop_table("idempotency_keys")
