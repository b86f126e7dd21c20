"""Draws, their currencies and matches, operator decisions, coupons, wallet transfers, statistics, jackpot.

Revision ID: 0002
Revises: 0001
"""

from datetime import UTC, datetime

import sqlalchemy as sa
from alembic import op
from platform_kit.db import BigIntPK

UtcDateTime = sa.DateTime(timezone=True)  # the service reads and writes it through platform_kit.db.UtcDateTime

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None

DRAW_ID = sa.String(40)
COUPON_ID = sa.String(40)
PLAYER_ID = sa.String(64)
USD = sa.String(64)
INSTANT = sa.DateTime(timezone=True)  # the service reads and writes it in UTC through platform_kit.db.UtcDateTime


def upgrade() -> None:
    op.create_table(
        "draws",
        sa.Column("draw_id", DRAW_ID, primary_key=True),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("close_at", INSTANT, nullable=False),
        sa.Column("jackpot_carried_usd", USD, nullable=False),
        sa.Column("jackpot_topup_usd", USD, nullable=False),
        sa.Column("version", sa.Integer, nullable=False),
        sa.Column("created_at", INSTANT, nullable=False),
        sa.Column("announced_at", INSTANT, nullable=True),
        sa.Column("closed_at", INSTANT, nullable=True),
        sa.Column("final_at", INSTANT, nullable=True),
        sa.Column("final_coupons", sa.Integer, nullable=True),
        sa.Column("final_bets", sa.BigInteger, nullable=True),
        sa.Column("final_pool_usd", USD, nullable=True),
        sa.Column("cancel_reason", sa.Text, nullable=True),
        sa.Column("settlement_report", sa.Text, nullable=True),
        sa.Column("next_jackpot_usd", USD, nullable=True),
        sa.Column("finished_at", INSTANT, nullable=True),
    )
    op.create_index("ix_draws_status", "draws", ["status"])

    op.create_table(
        "draw_currencies",
        sa.Column("draw_id", DRAW_ID, sa.ForeignKey("draws.draw_id"), nullable=False),
        sa.Column("currency", sa.String(3), nullable=False),
        sa.Column("position", sa.Integer, nullable=False),
        sa.Column("min_stake", sa.BigInteger, nullable=False),
        sa.Column("usd_rate", USD, nullable=False),
        sa.PrimaryKeyConstraint("draw_id", "currency"),
    )

    op.create_table(
        "draw_matches",
        sa.Column("draw_id", DRAW_ID, sa.ForeignKey("draws.draw_id"), nullable=False),
        sa.Column("no", sa.Integer, nullable=False),
        sa.Column("competition", sa.String(100), nullable=True),
        sa.Column("home", sa.String(100), nullable=False),
        sa.Column("away", sa.String(100), nullable=False),
        sa.Column("kickoff", INSTANT, nullable=False),
        sa.Column("actual_kickoff", INSTANT, nullable=True),
        sa.Column("options", sa.Text, nullable=False),
        sa.Column("score_home", sa.Integer, nullable=True),
        sa.Column("score_away", sa.Integer, nullable=True),
        sa.Column("result", sa.String(20), nullable=True),
        sa.Column("declared_void", sa.Boolean, nullable=False),
        sa.PrimaryKeyConstraint("draw_id", "no"),
    )

    op.create_table(
        "decisions",
        sa.Column("id", BigIntPK, primary_key=True, autoincrement=True),
        sa.Column("draw_id", DRAW_ID, sa.ForeignKey("draws.draw_id"), nullable=False),
        sa.Column("match_no", sa.Integer, nullable=True),
        sa.Column("action", sa.String(40), nullable=False),
        sa.Column("detail", sa.Text, nullable=False),
        sa.Column("reason", sa.Text, nullable=True),
        sa.Column("role", sa.String(16), nullable=False),
        sa.Column("staff_id", sa.String(100), nullable=True),
        sa.Column("decided_at", INSTANT, nullable=False),
    )
    op.create_index("ix_decisions_draw_id", "decisions", ["draw_id"])

    op.create_table(
        "coupons",
        sa.Column("id", BigIntPK, primary_key=True, autoincrement=True),
        sa.Column("coupon_id", COUPON_ID, nullable=False, unique=True),
        sa.Column("draw_id", DRAW_ID, sa.ForeignKey("draws.draw_id"), nullable=False),
        sa.Column("player_id", PLAYER_ID, nullable=False),
        sa.Column("idempotency_key", sa.String(100), nullable=False),
        sa.Column("fingerprint", sa.String(64), nullable=False),
        sa.Column("currency", sa.String(3), nullable=False),
        sa.Column("amount", sa.BigInteger, nullable=False),
        sa.Column("bets", sa.BigInteger, nullable=False),
        sa.Column("picks", sa.String(400), nullable=False),
        sa.Column("status", sa.String(10), nullable=False),
        sa.Column("accepted_at", INSTANT, nullable=False),
        sa.Column("resolved_at", INSTANT, nullable=True),
        sa.Column("wallet_operation_id", sa.BigInteger, nullable=True),
        sa.Column("refusal", sa.Text, nullable=True),
        sa.Column("counted", sa.Boolean, nullable=False),
        sa.UniqueConstraint("player_id", "idempotency_key", name="uq_coupons_player_key"),
    )
    op.create_index("ix_coupons_draw_status", "coupons", ["draw_id", "status"])
    op.create_index("ix_coupons_draw_counted", "coupons", ["draw_id", "counted"])
    op.create_index("ix_coupons_player", "coupons", ["player_id"])

    op.create_table(
        "wallet_transfers",
        sa.Column("id", BigIntPK, primary_key=True, autoincrement=True),
        sa.Column("draw_id", DRAW_ID, sa.ForeignKey("draws.draw_id"), nullable=False),
        sa.Column("phase", sa.Integer, nullable=False),
        sa.Column("kind", sa.String(30), nullable=False),
        sa.Column("currency", sa.String(3), nullable=False),
        sa.Column("amount", sa.BigInteger, nullable=False),
        sa.Column("player_id", PLAYER_ID, nullable=True),
        sa.Column("coupon_id", COUPON_ID, nullable=True),
        sa.Column("idempotency_key", sa.String(200), nullable=False, unique=True),
        sa.Column("status", sa.String(10), nullable=False),
        sa.Column("operation_id", sa.BigInteger, nullable=True),
        sa.Column("error", sa.Text, nullable=True),
        sa.Column("done_at", INSTANT, nullable=True),
    )
    op.create_index("ix_wallet_transfers_draw_status", "wallet_transfers", ["draw_id", "status"])

    op.create_table(
        "draw_statistics",
        sa.Column("draw_id", DRAW_ID, sa.ForeignKey("draws.draw_id"), primary_key=True),
        sa.Column("snapshot", sa.Text, nullable=False),
        sa.Column("updated_at", INSTANT, nullable=False),
    )

    pot = op.create_table(
        "jackpot_pot",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=False),
        sa.Column("amount_usd", USD, nullable=False),
        sa.Column("updated_at", INSTANT, nullable=False),
    )
    # The pot starts empty; the first draw is announced with its organizer top-up only (T-4.4).
    op.bulk_insert(pot, [{"id": 1, "amount_usd": "0", "updated_at": datetime.now(UTC)}])


def downgrade() -> None:
    for table in (
        "jackpot_pot",
        "draw_statistics",
        "wallet_transfers",
        "coupons",
        "decisions",
        "draw_matches",
        "draw_currencies",
        "draws",
    ):
        op.drop_table(table)
