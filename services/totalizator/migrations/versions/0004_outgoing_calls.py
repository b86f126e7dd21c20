"""A draw's wallet calls become the kit's outgoing calls (issue 19: platform_kit.outgoing_calls): the planned
transfers stay the settlement plan, and each wallet call that makes them — a batch of payments, or a transfer
planned alone — is a row of `outgoing_calls`, recorded with the plan from now on. The calls still pending at the
upgrade are recorded here, each under the key and with the request the service made it with before (its rows in
id order), so a call that reached the wallet unanswered is resent identically and the wallet answers it once.

Revision ID: 0004
Revises: 0003
"""

import json
from datetime import UTC, datetime

import sqlalchemy as sa
from alembic import op
from platform_kit.outgoing_calls import outgoing_calls_table
from totalizator.adapters.transfers import PlannedTransfer, wallet_calls

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None

_transfers = sa.table(
    "wallet_transfers",
    *(sa.column(name) for name in ("id", "draw_id", "phase", "kind", "currency", "amount", "player_id")),
    *(sa.column(name) for name in ("coupon_id", "idempotency_key", "batch_no", "status")),
)


def upgrade() -> None:
    bind = op.get_bind()
    calls = outgoing_calls_table(sa.MetaData())
    calls.create(bind)
    pending = bind.execute(
        sa.select(_transfers).where(_transfers.c.status == "pending").order_by(_transfers.c.draw_id, _transfers.c.id)
    ).all()
    planned: dict[str, list[PlannedTransfer]] = {}
    for row in pending:
        planned.setdefault(row.draw_id, []).append(
            PlannedTransfer(
                row.phase,
                row.kind,
                row.currency,
                row.amount,
                row.idempotency_key,
                row.player_id,
                row.coupon_id,
                row.batch_no,
            )
        )
    now = datetime.now(UTC)
    rows = [
        {
            "idempotency_key": call.key,
            "target": call.target,
            "operation": call.operation,
            "group_key": call.group,
            "path": call.request.path,
            "body": json.dumps(call.request.body, sort_keys=True),
            "status": "pending",
            "attempts": 0,
            "created_at": now,
            "updated_at": now,
        }
        for draw_id, transfers in planned.items()
        for call in wallet_calls(draw_id, transfers)
    ]
    if rows:
        bind.execute(calls.insert(), rows)


def downgrade() -> None:
    # The transfers' own status is unchanged: the service before this revision resumes them as it did.
    outgoing_calls_table(sa.MetaData()).drop(op.get_bind())
