"""Players' contributions to the deck: the next hand's seed, committed to in advance, and the values received.

`tables.next_seed` (hex) is the secret seed of the table's next hand, drawn when the previous hand was dealt
(or when the table opened) and committed to then; `tables.next_contributions` maps each player to the value
they contributed to that hand's deck (docs/fair-deal.md). Tables opened before this revision have neither:
their next deal draws a seed on the spot, as before, and commits to the following one.

Revision ID: 0005
Revises: 0004
"""

import sqlalchemy as sa
from alembic import op

revision = "0005"
down_revision = "0004"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column("tables", sa.Column("next_seed", sa.String(64), nullable=True))
    op.add_column("tables", sa.Column("next_contributions", sa.JSON, nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("tables") as batch:
        batch.drop_column("next_contributions")
        batch.drop_column("next_seed")
