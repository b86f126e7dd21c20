"""The headers a wallet call is sent with are stored with it (issue 14): a registration's entry carries the
player's concessionaire as `X-Concessionaire-Id`, and a call made again after a crash must carry it too. Calls
recorded before have none (NULL), as they were sent.

Revision ID: 0013
Revises: 0012
"""

import sqlalchemy as sa
from alembic import op

revision = "0013"
down_revision = "0012"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column("outgoing_calls", sa.Column("headers", sa.Text(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("outgoing_calls") as table:
        table.drop_column("headers")
