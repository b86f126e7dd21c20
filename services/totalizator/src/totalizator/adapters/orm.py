"""The totalizator service's database tables (migrations/versions/0002 creates them).

US-dollar amounts (rates, jackpots, pools) are exact decimal strings, never floats; stakes and payouts are
integers of their currency's minor units. Every instant is stored in UTC.
"""

from platform_kit.db import BigIntPK, UtcDateTime
from platform_kit.outgoing_calls import outgoing_calls_table
from platform_kit.runtime import add_messaging_tables
from sqlalchemy import (
    BigInteger,
    Boolean,
    Column,
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


DRAW_ID = String(40)
COUPON_ID = String(40)
PLAYER_ID = String(64)
USD = String(64)  # an exact decimal string of US dollars

draws = Table(
    "draws",
    metadata,
    Column("draw_id", DRAW_ID, primary_key=True),
    Column("status", String(16), nullable=False, index=True),
    Column("close_at", UtcDateTime, nullable=False),
    Column("jackpot_carried_usd", USD, nullable=False),  # taken from the jackpot pot at announcement (T-4.1)
    Column("jackpot_topup_usd", USD, nullable=False),  # the organizer's addition (T-4.4)
    # Bumped whenever the draw's rules-relevant data change (kick-offs, voids, results): caches key on it.
    Column("version", Integer, nullable=False),
    Column("created_at", UtcDateTime, nullable=False),
    Column("announced_at", UtcDateTime, nullable=True),
    Column("closed_at", UtcDateTime, nullable=True),
    # Set once bets are closed and every accepted coupon is paid for: the final count and pool (T-2.6).
    Column("final_at", UtcDateTime, nullable=True),
    Column("final_coupons", Integer, nullable=True),
    Column("final_bets", BigInteger, nullable=True),
    Column("final_pool_usd", USD, nullable=True),
    Column("cancel_reason", Text, nullable=True),
    Column("settlement_report", Text, nullable=True),  # the verifier's JSON report (T-8.4) of the settlement
    Column("next_jackpot_usd", USD, nullable=True),
    Column("finished_at", UtcDateTime, nullable=True),  # settled or cancelled, every wallet transfer done
)

draw_currencies = Table(
    "draw_currencies",
    metadata,
    Column("draw_id", DRAW_ID, ForeignKey("draws.draw_id"), nullable=False),
    Column("currency", String(3), nullable=False),
    Column("position", Integer, nullable=False),
    Column("min_stake", BigInteger, nullable=False),  # minor units (T-2.2)
    Column("usd_rate", USD, nullable=False),  # US dollars per major unit, fixed for the draw (T-2.3)
    PrimaryKeyConstraint("draw_id", "currency"),
)

draw_matches = Table(
    "draw_matches",
    metadata,
    Column("draw_id", DRAW_ID, ForeignKey("draws.draw_id"), nullable=False),
    Column("no", Integer, nullable=False),
    Column("competition", String(100), nullable=True),
    Column("home", String(100), nullable=False),
    Column("away", String(100), nullable=False),
    Column("kickoff", UtcDateTime, nullable=False),  # scheduled
    Column("actual_kickoff", UtcDateTime, nullable=True),  # recorded by an operator (T-5.1)
    Column("options", Text, nullable=False),  # JSON list of the offered results (T-2.1)
    Column("score_home", Integer, nullable=True),
    Column("score_away", Integer, nullable=True),
    Column("result", String(20), nullable=True),  # the option the regular-time score maps to
    Column("declared_void", Boolean, nullable=False),
    PrimaryKeyConstraint("draw_id", "no"),
)

# Every operator decision on a draw, with who took it and why (T-1.5).
decisions = Table(
    "decisions",
    metadata,
    Column("id", BigIntPK, primary_key=True, autoincrement=True),
    Column("draw_id", DRAW_ID, ForeignKey("draws.draw_id"), nullable=False, index=True),
    Column("match_no", Integer, nullable=True),
    Column("action", String(40), nullable=False),
    Column("detail", Text, nullable=False),  # JSON
    Column("reason", Text, nullable=True),
    Column("role", String(16), nullable=False),
    Column("staff_id", String(100), nullable=True),
    Column("decided_at", UtcDateTime, nullable=False),
)

coupons = Table(
    "coupons",
    metadata,
    Column("id", BigIntPK, primary_key=True, autoincrement=True),
    Column("coupon_id", COUPON_ID, nullable=False, unique=True),
    Column("draw_id", DRAW_ID, ForeignKey("draws.draw_id"), nullable=False),
    Column("player_id", PLAYER_ID, nullable=False),
    Column("idempotency_key", String(100), nullable=False),
    Column("fingerprint", String(64), nullable=False),  # of the request, to refuse a reused key
    Column("currency", String(3), nullable=False),
    Column("amount", BigInteger, nullable=False),  # minor units
    Column("bets", BigInteger, nullable=False),
    Column("picks", String(400), nullable=False),  # the 8 pick bitmasks, comma-separated
    # pending: accepted before closing, the stake not yet confirmed by the wallet; accepted: paid for;
    # refused: the wallet refused the stake (the coupon never counts).
    Column("status", String(10), nullable=False),
    Column("accepted_at", UtcDateTime, nullable=False),
    Column("resolved_at", UtcDateTime, nullable=True),
    Column("wallet_operation_id", BigInteger, nullable=True),
    Column("refusal", Text, nullable=True),  # the wallet's problem+json body, replayed to retries
    Column("counted", Boolean, nullable=False),  # folded into the live statistics
    UniqueConstraint("player_id", "idempotency_key", name="uq_coupons_player_key"),
    Index("ix_coupons_draw_status", "draw_id", "status"),
    Index("ix_coupons_draw_counted", "draw_id", "counted"),
    Index("ix_coupons_player", "player_id"),
)

# Money the service moves through the wallet for a draw, planned before it is made: a restart resumes the
# pending ones with the same idempotency key and request, so nothing is paid twice. One row per organizer's
# transfer or coupon payment; the payments are made in batches, one wallet call each (adapters/transfers.py).
wallet_transfers = Table(
    "wallet_transfers",
    metadata,
    Column("id", BigIntPK, primary_key=True, autoincrement=True),
    Column("draw_id", DRAW_ID, ForeignKey("draws.draw_id"), nullable=False),
    Column("phase", Integer, nullable=False),  # money into a pool first, payouts next, what is left last
    Column("kind", String(30), nullable=False),
    Column("currency", String(3), nullable=False),
    Column("amount", BigInteger, nullable=False),
    Column("player_id", PLAYER_ID, nullable=True),
    Column("coupon_id", COUPON_ID, nullable=True),
    Column("idempotency_key", String(200), nullable=False, unique=True),  # the transfer's own
    # Payments made in one wallet call share a number, unique in the draw, written with the plan: the call's
    # key and request are derived from it and its rows, so a resent batch is the same request. NULL: a call of
    # its own under the row's key (organizer's transfers; payments planned before batches, migration 0003).
    Column("batch_no", Integer, nullable=True),
    Column("status", String(10), nullable=False),  # pending, done, refused
    Column("operation_id", BigInteger, nullable=True),
    Column("error", Text, nullable=True),
    Column("done_at", UtcDateTime, nullable=True),
    Index("ix_wallet_transfers_draw_status", "draw_id", "status"),
    Index("ix_wallet_transfers_draw_batch", "draw_id", "batch_no"),
)

# Each wallet call that makes a draw's transfers (a batch of payments, or an organizer's transfer): the kit's
# outgoing calls (platform_kit.outgoing_calls), recorded with the plan; the draw is the group, the kind the operation.
outgoing_calls = outgoing_calls_table(metadata)

draw_statistics = Table(
    "draw_statistics",
    metadata,
    Column("draw_id", DRAW_ID, ForeignKey("draws.draw_id"), primary_key=True),
    Column("snapshot", Text, nullable=False),  # JSON of the domain's StatisticsSnapshot, exact
    Column("updated_at", UtcDateTime, nullable=False),
)

# The jackpot waiting for the next announced draw (T-4.1): one row.
jackpot_pot = Table(
    "jackpot_pot",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=False),
    Column("amount_usd", USD, nullable=False),
    Column("updated_at", UtcDateTime, nullable=False),
)
