"""Partner webhooks: endpoints, deliveries (issue 16, filled in by its change).

Revision ID: 0005
Revises: 0004
"""

import sqlalchemy as sa
from alembic import op

revision = "0005"
down_revision = "0004"
branch_labels = None
depends_on = None

ID = 32
WHEN = sa.DateTime(timezone=True)
SEQ = sa.BigInteger().with_variant(sa.Integer(), "sqlite")


def upgrade() -> None:
    op.create_table(
        "webhook_endpoints",
        sa.Column("id", sa.String(ID), primary_key=True),
        sa.Column("concessionaire_id", sa.String(ID), sa.ForeignKey("concessionaires.id"), nullable=False),
        sa.Column("url", sa.String(2000), nullable=False),
        sa.Column("event_types", sa.String(1000), nullable=False),
        sa.Column("description", sa.String(200), nullable=False),
        sa.Column("secret", sa.String(100), nullable=False),
        sa.Column("previous_secret", sa.String(100), nullable=True),
        sa.Column("previous_secret_until", WHEN, nullable=True),
        sa.Column("enabled", sa.Boolean, nullable=False),
        sa.Column("disabled_reason", sa.String(20), nullable=True),
        sa.Column("disabled_at", WHEN, nullable=True),
        sa.Column("failing_since", WHEN, nullable=True),
        sa.Column("lease_until", WHEN, nullable=True),
        sa.Column("created_by", sa.String(80), nullable=False),
        sa.Column("created_at", WHEN, nullable=False),
    )
    op.create_index("ix_webhook_endpoints_concessionaire_id", "webhook_endpoints", ["concessionaire_id"])
    op.create_table(
        "webhook_deliveries",
        sa.Column("seq", SEQ, primary_key=True, autoincrement=True),
        sa.Column(
            "endpoint_id", sa.String(ID), sa.ForeignKey("webhook_endpoints.id", ondelete="CASCADE"), nullable=False
        ),
        sa.Column("event_id", sa.String(40), nullable=False),
        sa.Column("event_type", sa.String(60), nullable=False),
        sa.Column("body", sa.Text, nullable=False),
        sa.Column("created_at", WHEN, nullable=False),
        sa.Column("status", sa.String(12), nullable=False),
        sa.Column("attempts", sa.Integer, nullable=False),
        sa.Column("next_attempt_at", WHEN, nullable=False),
        sa.Column("first_attempt_at", WHEN, nullable=True),
        sa.Column("last_attempt_at", WHEN, nullable=True),
        sa.Column("last_status_code", sa.Integer, nullable=True),
        sa.Column("last_error", sa.String(200), nullable=True),
        sa.Column("delivered_at", WHEN, nullable=True),
        sa.UniqueConstraint("endpoint_id", "event_id", name="uq_webhook_deliveries_endpoint_event"),
    )
    op.create_index("ix_webhook_deliveries_endpoint_status", "webhook_deliveries", ["endpoint_id", "status", "seq"])
    op.create_table(
        "webhook_notices",
        sa.Column("id", SEQ, primary_key=True, autoincrement=True),
        sa.Column("concessionaire_id", sa.String(ID), sa.ForeignKey("concessionaires.id"), nullable=False),
        sa.Column("endpoint_id", sa.String(ID), nullable=False),
        sa.Column("kind", sa.String(30), nullable=False),
        sa.Column("message_en", sa.String(500), nullable=False),
        sa.Column("message_it", sa.String(500), nullable=False),
        sa.Column("created_at", WHEN, nullable=False),
    )
    op.create_index("ix_webhook_notices_concessionaire_id", "webhook_notices", ["concessionaire_id"])


def downgrade() -> None:
    for table in ("webhook_notices", "webhook_deliveries", "webhook_endpoints"):
        op.drop_table(table)
