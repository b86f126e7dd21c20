"""Tournaments, run snapshots, registrations, standings, tickets, money steps, rebuy offers, jackpots.

Revision ID: 0002
Revises: 0001
"""

import sqlalchemy as sa
from alembic import op
from tournament_director.adapters.orm import UtcDateTime

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None

ID = sa.String(64)
AT = UtcDateTime()


def upgrade() -> None:
    op.create_table(
        "tournaments",
        sa.Column("tournament_id", ID, primary_key=True),
        sa.Column("name", sa.String(200), nullable=False),
        sa.Column("kind", sa.String(20), nullable=False),
        sa.Column("status", sa.String(20), nullable=False),
        sa.Column("currency", sa.String(3), nullable=False),
        sa.Column("concessionaire_id", ID, nullable=True),
        sa.Column("created_by", ID, nullable=False),
        sa.Column("template", sa.String(64), nullable=True),
        sa.Column("definition", sa.Text, nullable=False),
        sa.Column("jackpots", sa.Text, nullable=False),
        sa.Column("invited_player_ids", sa.Text, nullable=False),
        sa.Column("registration_opens_at", AT, nullable=True),
        sa.Column("starts_at", AT, nullable=True),
        sa.Column("created_at", AT, nullable=False),
        sa.Column("started_at", AT, nullable=True),
        sa.Column("ended_at", AT, nullable=True),
        sa.Column("end_reason", sa.String(500), nullable=True),
        sa.Column("settled_at", AT, nullable=True),
    )
    op.create_index("ix_tournaments_status", "tournaments", ["status"])

    op.create_table(
        "runs",
        sa.Column("tournament_id", ID, sa.ForeignKey("tournaments.tournament_id"), primary_key=True),
        sa.Column("state", sa.Text, nullable=False),
        sa.Column("next_clock_at", AT, nullable=True),
        sa.Column("updated_at", AT, nullable=False),
    )
    op.create_index("ix_runs_next_clock_at", "runs", ["next_clock_at"])

    op.create_table(
        "registrations",
        sa.Column("tournament_id", ID, sa.ForeignKey("tournaments.tournament_id"), nullable=False),
        sa.Column("player_id", ID, nullable=False),
        sa.Column("concessionaire_id", ID, nullable=False),
        sa.Column("entry", sa.String(20), nullable=False),
        sa.Column("ticket_code", sa.String(32), nullable=True),
        sa.Column("status", sa.String(20), nullable=False),
        sa.Column("attempt", sa.Integer, nullable=False),
        sa.Column("prize_part_cents", sa.BigInteger, nullable=False),
        sa.Column("fee_cents", sa.BigInteger, nullable=False),
        sa.Column("registered_at", AT, nullable=False),
        sa.PrimaryKeyConstraint("tournament_id", "player_id"),
    )
    op.create_index("ix_registrations_player_id", "registrations", ["player_id"])

    op.create_table(
        "standings",
        sa.Column("tournament_id", ID, sa.ForeignKey("tournaments.tournament_id"), nullable=False),
        sa.Column("player_id", ID, nullable=False),
        sa.Column("position", sa.Integer, nullable=False),
        sa.Column("prize_cents", sa.BigInteger, nullable=False),
        sa.Column("disqualified", sa.Boolean, nullable=False),
        sa.PrimaryKeyConstraint("tournament_id", "player_id"),
    )

    op.create_table(
        "tickets",
        sa.Column("code", sa.String(32), primary_key=True),
        sa.Column("player_id", ID, nullable=False),
        sa.Column("currency", sa.String(3), nullable=False),
        sa.Column("prize_part_cents", sa.BigInteger, nullable=False),
        sa.Column("fee_cents", sa.BigInteger, nullable=False),
        sa.Column("tournament_kind", sa.String(20), nullable=False),
        sa.Column("source_tournament_id", ID, nullable=False),
        sa.Column("issued_reason", sa.String(20), nullable=False),
        sa.Column("issued_at", AT, nullable=False),
        sa.Column("used_by_tournament_id", ID, nullable=True),
        sa.Column("used_at", AT, nullable=True),
    )
    op.create_index("ix_tickets_player_id", "tickets", ["player_id"])

    op.create_table(
        "money_steps",
        sa.Column(
            "step_id", sa.BigInteger().with_variant(sa.Integer(), "sqlite"), primary_key=True, autoincrement=True
        ),
        sa.Column("tournament_id", ID, nullable=False),
        sa.Column("player_id", ID, nullable=True),
        sa.Column("kind", sa.String(30), nullable=False),
        sa.Column("idempotency_key", sa.String(200), nullable=False, unique=True),
        sa.Column("client_key", sa.String(200), nullable=True),
        sa.Column("path", sa.String(300), nullable=False),
        sa.Column("body", sa.Text, nullable=False),
        sa.Column("status", sa.String(10), nullable=False),
        sa.Column("attempts", sa.Integer, nullable=False),
        sa.Column("answer", sa.Text, nullable=True),
        sa.Column("refusal_code", sa.String(80), nullable=True),
        sa.Column("created_at", AT, nullable=False),
        sa.Column("updated_at", AT, nullable=False),
    )
    op.create_index("ix_money_steps_status", "money_steps", ["status"])
    op.create_index("ix_money_steps_tournament_id", "money_steps", ["tournament_id"])

    op.create_table(
        "rebuy_offers",
        sa.Column("tournament_id", ID, sa.ForeignKey("tournaments.tournament_id"), nullable=False),
        sa.Column("player_id", ID, nullable=False),
        sa.Column("table_id", sa.String(100), nullable=False),
        sa.Column("expires_at", AT, nullable=False),
        sa.PrimaryKeyConstraint("tournament_id", "player_id"),
    )
    op.create_index("ix_rebuy_offers_expires_at", "rebuy_offers", ["expires_at"])

    op.create_table(
        "jackpot_funds",
        sa.Column("programme_id", ID, nullable=False),
        sa.Column("concessionaire_id", ID, nullable=False),
        sa.Column("currency", sa.String(3), nullable=False),
        sa.Column("balance_cents", sa.BigInteger, nullable=False),
        sa.PrimaryKeyConstraint("programme_id", "concessionaire_id", "currency"),
    )

    op.create_table(
        "jackpot_streaks",
        sa.Column("programme_id", ID, nullable=False),
        sa.Column("player_id", ID, nullable=False),
        sa.Column("streak", sa.Integer, nullable=False),
        sa.PrimaryKeyConstraint("programme_id", "player_id"),
    )


def downgrade() -> None:
    for table in (
        "jackpot_streaks",
        "jackpot_funds",
        "rebuy_offers",
        "money_steps",
        "tickets",
        "standings",
        "registrations",
        "runs",
        "tournaments",
    ):
        op.drop_table(table)
