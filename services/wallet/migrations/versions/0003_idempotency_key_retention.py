"""Idempotency-key retention: an index on `idempotency_keys.created_at` for the purge of the oldest keys.

Revision ID: 0003
Revises: 0002
"""

from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None

INDEX = "ix_idempotency_keys_created_at"


def upgrade() -> None:
    # The table holds every key ever used until this release: on PostgreSQL the index is built CONCURRENTLY
    # (outside a transaction), so money commands keep claiming keys while it is built.
    with op.get_context().autocommit_block():
        op.create_index(INDEX, "idempotency_keys", ["created_at"], postgresql_concurrently=True)


def downgrade() -> None:
    with op.get_context().autocommit_block():
        op.drop_index(INDEX, table_name="idempotency_keys", postgresql_concurrently=True)
