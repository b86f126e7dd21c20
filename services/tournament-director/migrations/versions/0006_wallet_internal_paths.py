"""Money steps name the wallet's routes under `/internal/v1`, where the wallet serves them since issue 19 (they
were under `/v1`). A step still pending at the upgrade is sent again as stored: it must reach the route it names.
Its key and body stay as they are, so the wallet answers it once (its fingerprints leave the mount out).

Revision ID: 0006
Revises: 0005
"""

import sqlalchemy as sa
from alembic import op

revision = "0006"
down_revision = "0005"
branch_labels = None
depends_on = None

_steps = sa.table("money_steps", sa.column("path", sa.String))


def upgrade() -> None:
    op.execute(_steps.update().where(_steps.c.path.startswith("/v1/")).values(path="/internal" + _steps.c.path))


def downgrade() -> None:
    moved = _steps.c.path.startswith("/internal/v1/")
    op.execute(_steps.update().where(moved).values(path=sa.func.substr(_steps.c.path, len("/internal") + 1)))
