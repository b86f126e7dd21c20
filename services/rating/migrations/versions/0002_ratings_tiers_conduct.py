"""Ratings (players, awards, summaries), tiers (tier days, tiers in force, standings) and conduct (reports,
sanctions with their appeals).

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
OWN_ID = sa.String(32)
TIER = sa.String(20)
AT = sa.DateTime(timezone=True)


def upgrade() -> None:
    op.create_table(
        "players",
        sa.Column("player_id", ID, primary_key=True),
        sa.Column("nickname", sa.String(100), nullable=False),
        sa.Column("concessionaire_id", ID, nullable=False),
        sa.Column("registered_at", AT, nullable=False),
    )
    op.create_index("ix_players_concessionaire_id", "players", ["concessionaire_id"])

    op.create_table(
        "awards",
        sa.Column("player_id", ID, nullable=False),
        sa.Column("tournament_id", ID, nullable=False),
        sa.Column("day", sa.Date, nullable=False),
        sa.Column("points", sa.BigInteger, nullable=False),
        sa.Column("position", sa.Integer, nullable=False),
        sa.Column("tied_positions", sa.Integer, nullable=False),
        sa.Column("pool_cents", sa.BigInteger, nullable=False),
        sa.Column("recorded_at", AT, nullable=False),
        sa.PrimaryKeyConstraint("player_id", "tournament_id"),
    )
    op.create_index("ix_awards_tournament_id", "awards", ["tournament_id"])
    op.create_index("ix_awards_player_day", "awards", ["player_id", "day"])

    op.create_table(
        "rating_summaries",
        sa.Column("player_id", ID, primary_key=True),
        sa.Column("last_day", sa.Date, nullable=False),
        sa.Column("value", sa.BigInteger, nullable=False),
    )

    op.create_table(
        "tier_days",
        sa.Column("day", sa.Date, primary_key=True),
        sa.Column("active_count", sa.Integer, nullable=False),
        sa.Column("minimum_ratings", sa.JSON, nullable=False),
        sa.Column("computed_at", AT, nullable=False),
    )

    op.create_table(
        "player_tiers",
        sa.Column("player_id", ID, primary_key=True),
        sa.Column("tier", TIER, nullable=False),
        sa.Column("since_day", sa.Date, nullable=False),
    )

    op.create_table(
        "standings",
        sa.Column("day", sa.Date, nullable=False),
        sa.Column("position", sa.Integer, nullable=False),
        sa.Column("rank", sa.Integer, nullable=False),
        sa.Column("player_id", ID, nullable=False),
        sa.Column("rating", sa.BigInteger, nullable=False),
        sa.Column("tier", TIER, nullable=False),
        sa.PrimaryKeyConstraint("day", "position"),
        sa.UniqueConstraint("day", "player_id", name="uq_standings_day_player"),
    )

    op.create_table(
        "reports",
        sa.Column("report_id", OWN_ID, primary_key=True),
        sa.Column("offender_id", ID, nullable=False),
        sa.Column("concessionaire_id", ID, nullable=False),
        sa.Column("offence", sa.String(32), nullable=False),
        sa.Column("detection", sa.String(32), nullable=False),
        sa.Column("reporter_id", ID, nullable=True),
        sa.Column("tournament_id", ID, nullable=True),
        sa.Column("description", sa.Text, nullable=False),
        sa.Column("filed_at", AT, nullable=False),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("closed_by", ID, nullable=True),
        sa.Column("closed_at", AT, nullable=True),
    )
    op.create_index("ix_reports_offender_id", "reports", ["offender_id"])
    op.create_index("ix_reports_concessionaire_id", "reports", ["concessionaire_id"])
    op.create_index("ix_reports_status", "reports", ["status"])

    op.create_table(
        "sanctions",
        sa.Column("sanction_id", OWN_ID, primary_key=True),
        sa.Column("player_id", ID, nullable=False),
        sa.Column("kind", sa.String(40), nullable=False),
        sa.Column("context", sa.String(32), nullable=False),
        sa.Column("offence", sa.String(32), nullable=False),
        sa.Column("gravity", sa.Integer, nullable=False),
        sa.Column("prior_sanctions", sa.Integer, nullable=False),
        sa.Column("decided_at", AT, nullable=False),
        sa.Column("decided_by", ID, nullable=False),
        sa.Column("room_id", ID, nullable=False),
        sa.Column("tournament_id", ID, nullable=True),
        sa.Column("duration_seconds", sa.BigInteger, nullable=True),
        sa.Column("ends_at", AT, nullable=True),
        sa.Column("ban_scope", sa.String(20), nullable=True),
        sa.Column("ranking_penalty_positions", sa.Integer, nullable=False),
        sa.Column("entries_forfeit", sa.Boolean, nullable=False),
        sa.Column("reason", sa.Text, nullable=False),
        sa.Column("appeal_filed_at", AT, nullable=True),
        sa.Column("appeal_grounds", sa.Text, nullable=True),
        sa.Column("appeal_outcome", sa.String(24), nullable=True),
        sa.Column("appeal_decided_at", AT, nullable=True),
        sa.Column("appeal_decided_by", ID, nullable=True),
        sa.Column("lifted_at", AT, nullable=True),
        sa.Column("lifted_reason", sa.String(24), nullable=True),
    )
    op.create_index("ix_sanctions_player_id", "sanctions", ["player_id"])
    op.create_index("ix_sanctions_expiry", "sanctions", ["lifted_at", "ends_at"])

    op.create_table(
        "sanction_reports",
        sa.Column("sanction_id", OWN_ID, sa.ForeignKey("sanctions.sanction_id"), nullable=False),
        sa.Column("report_id", OWN_ID, sa.ForeignKey("reports.report_id"), nullable=False),
        sa.PrimaryKeyConstraint("sanction_id", "report_id"),
    )
    op.create_index("ix_sanction_reports_report_id", "sanction_reports", ["report_id"])


def downgrade() -> None:
    for table in (
        "sanction_reports",
        "sanctions",
        "reports",
        "standings",
        "player_tiers",
        "tier_days",
        "rating_summaries",
        "awards",
        "players",
    ):
        op.drop_table(table)
