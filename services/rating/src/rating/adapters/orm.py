"""The rating service's database tables (migrations/versions/0002 creates them).

Ratings: `awards` is the append-only history (one row per player and tournament, the exactly-once key);
`rating_summaries` is its fold, one row per player who ever played (see domain/summary.py), kept in the
same transaction as the awards it sums.
Tiers: `tier_days` records each day the tier job closed and its cutoffs; `player_tiers` holds the tier in
force per player (absent: ESORDIENTE); `standings` is the public ranking of the last closed day.
Conduct: `reports`, `sanctions` (with their appeal, one per sanction) and `sanction_reports` linking them.
"""

from platform_kit.db import UtcDateTime
from platform_kit.runtime import add_messaging_tables
from sqlalchemy import (
    JSON,
    BigInteger,
    Boolean,
    Column,
    Date,
    ForeignKey,
    Index,
    Integer,
    MetaData,
    PrimaryKeyConstraint,
    String,
    Table,
    Text,
    UniqueConstraint,
)

metadata = MetaData()
add_messaging_tables(metadata)

ID = String(100)  # ids of players, concessionaires and tournaments are the owning services' strings
OWN_ID = String(32)  # ids this service gives: uuid4 hex
TIER = String(20)

players = Table(
    "players",
    metadata,
    Column("player_id", ID, primary_key=True),
    Column("nickname", String(100), nullable=False),
    Column("concessionaire_id", ID, nullable=False, index=True),
    Column("registered_at", UtcDateTime, nullable=False),
)

awards = Table(
    "awards",
    metadata,
    Column("player_id", ID, nullable=False),
    Column("tournament_id", ID, nullable=False, index=True),
    Column("day", Date, nullable=False),
    Column("points", BigInteger, nullable=False),  # micro-points
    Column("position", Integer, nullable=False),
    Column("tied_positions", Integer, nullable=False),
    Column("pool_cents", BigInteger, nullable=False),  # the P-11.1 pool the points come from
    Column("recorded_at", UtcDateTime, nullable=False),
    PrimaryKeyConstraint("player_id", "tournament_id"),
    Index("ix_awards_player_day", "player_id", "day"),
)

rating_summaries = Table(
    "rating_summaries",
    metadata,
    Column("player_id", ID, primary_key=True),
    Column("last_day", Date, nullable=False),
    Column("value", BigInteger, nullable=False),  # micro-points at the end of last_day
)

tier_days = Table(
    "tier_days",
    metadata,
    Column("day", Date, primary_key=True),
    Column("active_count", Integer, nullable=False),
    Column("minimum_ratings", JSON, nullable=False),  # TierCutoffs.minimum_ratings, best tier first
    Column("computed_at", UtcDateTime, nullable=False),
)

player_tiers = Table(
    "player_tiers",
    metadata,
    Column("player_id", ID, primary_key=True),
    Column("tier", TIER, nullable=False),
    Column("since_day", Date, nullable=False),
)

standings = Table(
    "standings",
    metadata,
    Column("day", Date, nullable=False),
    Column("position", Integer, nullable=False),  # 1..N in leaderboard order: pages are position ranges
    Column("rank", Integer, nullable=False),  # shared by tied players (P-11.8)
    Column("player_id", ID, nullable=False),
    Column("rating", BigInteger, nullable=False),
    Column("tier", TIER, nullable=False),
    PrimaryKeyConstraint("day", "position"),
    UniqueConstraint("day", "player_id", name="uq_standings_day_player"),
)

reports = Table(
    "reports",
    metadata,
    Column("report_id", OWN_ID, primary_key=True),
    Column("offender_id", ID, nullable=False, index=True),
    Column("concessionaire_id", ID, nullable=False, index=True),  # the offender's
    Column("offence", String(32), nullable=False),
    Column("detection", String(32), nullable=False),
    Column("reporter_id", ID, nullable=True),
    Column("tournament_id", ID, nullable=True),
    Column("description", Text, nullable=False),
    Column("filed_at", UtcDateTime, nullable=False),
    Column("status", String(16), nullable=False, index=True),
    Column("closed_by", ID, nullable=True),
    Column("closed_at", UtcDateTime, nullable=True),
)

sanctions = Table(
    "sanctions",
    metadata,
    Column("sanction_id", OWN_ID, primary_key=True),
    Column("player_id", ID, nullable=False, index=True),
    Column("kind", String(40), nullable=False),
    Column("context", String(32), nullable=False),
    Column("offence", String(32), nullable=False),
    Column("gravity", Integer, nullable=False),
    Column("prior_sanctions", Integer, nullable=False),  # standing sanctions for this offence, as shown
    Column("decided_at", UtcDateTime, nullable=False),
    Column("decided_by", ID, nullable=False),
    Column("room_id", ID, nullable=False),
    Column("tournament_id", ID, nullable=True),
    Column("duration_seconds", BigInteger, nullable=True),
    Column("ends_at", UtcDateTime, nullable=True),
    Column("ban_scope", String(20), nullable=True),
    Column("ranking_penalty_positions", Integer, nullable=False),
    Column("entries_forfeit", Boolean, nullable=False),
    Column("reason", Text, nullable=False),
    Column("appeal_filed_at", UtcDateTime, nullable=True),
    Column("appeal_grounds", Text, nullable=True),
    Column("appeal_outcome", String(24), nullable=True),
    Column("appeal_decided_at", UtcDateTime, nullable=True),
    Column("appeal_decided_by", ID, nullable=True),
    Column("lifted_at", UtcDateTime, nullable=True),
    Column("lifted_reason", String(24), nullable=True),
    # The expiry sweep looks for temporary sanctions past their end and not yet lifted.
    Index("ix_sanctions_expiry", "lifted_at", "ends_at"),
)

sanction_reports = Table(
    "sanction_reports",
    metadata,
    Column("sanction_id", OWN_ID, ForeignKey("sanctions.sanction_id"), nullable=False),
    Column("report_id", OWN_ID, ForeignKey("reports.report_id"), nullable=False, index=True),
    PrimaryKeyConstraint("sanction_id", "report_id"),
)
