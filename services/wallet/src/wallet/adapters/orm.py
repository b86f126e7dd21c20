"""The wallet service's database tables (migrations/versions/0002 creates them).

The ledger is append-only: `operations` and `transfers` rows are only ever inserted. `accounts.balance` and
`accounts.held` are running totals kept in the same transaction as the transfers and holds they sum, so that
the no-overdraft rule is one conditional UPDATE; reconciliation re-derives both from the rows and compares.
"""

from platform_kit.db import BigIntPK, UtcDateTime
from platform_kit.runtime import add_messaging_tables
from sqlalchemy import (
    BigInteger,
    Boolean,
    CheckConstraint,
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
    text,
)

metadata = MetaData()
add_messaging_tables(metadata)

ID = String(100)  # ids of players, concessionaires, tournaments and draws are the owning services' strings

players = Table(
    "players",
    metadata,
    Column("player_id", ID, primary_key=True),
    Column("concessionaire_id", ID, nullable=False, index=True),
    Column("registered_at", UtcDateTime, nullable=False),
)

accounts = Table(
    "accounts",
    metadata,
    Column("id", BigIntPK, primary_key=True, autoincrement=True),
    Column("kind", String(32), nullable=False),
    Column("owner", ID, nullable=False),
    Column("currency", String(3), nullable=False),
    Column("concessionaire_id", ID, nullable=True, index=True),
    Column("may_go_negative", Boolean, nullable=False),
    Column("balance", BigInteger, nullable=False, default=0),
    Column("held", BigInteger, nullable=False, default=0),
    Column("opened_at", UtcDateTime, nullable=False),
    UniqueConstraint("kind", "owner", "currency", name="uq_accounts_key"),
    CheckConstraint("held >= 0", name="ck_accounts_held_not_negative"),
    # The database itself refuses an overdraft, whatever the code above it does.
    CheckConstraint("may_go_negative OR balance - held >= 0", name="ck_accounts_no_overdraft"),
    # A tournament is played in one currency: one escrow per tournament.
    Index(
        "uq_accounts_one_escrow_per_tournament",
        "owner",
        unique=True,
        postgresql_where=text("kind = 'tournament_escrow'"),
        sqlite_where=text("kind = 'tournament_escrow'"),
    ),
)

operations = Table(
    "operations",
    metadata,
    Column("id", BigIntPK, primary_key=True, autoincrement=True),
    Column("kind", String(32), nullable=False),
    Column("currency", String(3), nullable=False),
    Column("tournament_id", ID, nullable=True, index=True),
    Column("draw_id", ID, nullable=True, index=True),
    Column("player_id", ID, nullable=True),
    Column("concessionaire_id", ID, nullable=True),
    Column("reference", String(200), nullable=True),
    # P-8.7: the taxable amount of an entry (negative on the reversal of one); no money moves for it.
    Column("tax_base", BigInteger, nullable=True),
    Column("reverses_operation_id", BigInteger, ForeignKey("operations.id"), nullable=True, unique=True),
    Column("created_at", UtcDateTime, nullable=False),
    # A player's deposits in a window, summed for their deposit limits (service/deposit_limits.py).
    Index("ix_operations_player_kind_created", "player_id", "kind", "created_at"),
)

transfers = Table(
    "transfers",
    metadata,
    Column("id", BigIntPK, primary_key=True, autoincrement=True),
    Column("operation_id", BigInteger, ForeignKey("operations.id"), nullable=False, index=True),
    Column("debit_account_id", BigInteger, ForeignKey("accounts.id"), nullable=False),
    Column("credit_account_id", BigInteger, ForeignKey("accounts.id"), nullable=False),
    Column("amount", BigInteger, nullable=False),
    Column("purpose", String(40), nullable=False),
    Column("created_at", UtcDateTime, nullable=False),
    CheckConstraint("amount > 0", name="ck_transfers_amount_positive"),
    CheckConstraint("debit_account_id <> credit_account_id", name="ck_transfers_two_accounts"),
    Index("ix_transfers_debit", "debit_account_id", "id"),
    Index("ix_transfers_credit", "credit_account_id", "id"),
)

holds = Table(
    "holds",
    metadata,
    Column("id", BigIntPK, primary_key=True, autoincrement=True),
    Column("account_id", BigInteger, ForeignKey("accounts.id"), nullable=False, index=True),
    Column("destination_account_id", BigInteger, ForeignKey("accounts.id"), nullable=False),
    Column("amount", BigInteger, nullable=False),
    Column("status", String(16), nullable=False),
    Column("reference", String(200), nullable=True),
    Column("created_at", UtcDateTime, nullable=False),
    Column("expires_at", UtcDateTime, nullable=False),
    Column("resolved_at", UtcDateTime, nullable=True),
    Column("posted_amount", BigInteger, nullable=True),
    Column("operation_id", BigInteger, ForeignKey("operations.id"), nullable=True),
    CheckConstraint("amount > 0", name="ck_holds_amount_positive"),
    Index("ix_holds_status_expires_at", "status", "expires_at"),
)

idempotency_keys = Table(
    "idempotency_keys",
    metadata,
    Column("scope", String(120), nullable=False),
    Column("key", String(200), nullable=False),
    Column("fingerprint", String(64), nullable=False),
    Column("status_code", Integer, nullable=True),
    Column("response", Text, nullable=True),
    Column("created_at", UtcDateTime, nullable=False),
    PrimaryKeyConstraint("scope", "key"),
    # The retention purge walks the oldest keys first (platform_kit.key_retention).
    Index("ix_idempotency_keys_created_at", "created_at"),
)

# Deposit limits a player set on themself (domain/deposit_limits.py), one row per player, currency and window.
# Deposits lock the player's rows (FOR UPDATE) before summing what the window holds: two concurrent deposits
# are checked one after the other.
deposit_limits = Table(
    "deposit_limits",
    metadata,
    Column("player_id", ID, nullable=False),
    Column("currency", String(3), nullable=False),
    Column("period", String(8), nullable=False),  # day | week | month
    Column("amount", BigInteger, nullable=True),  # None: no limit in force
    Column("pending_amount", BigInteger, nullable=True),
    Column("pending_from", UtcDateTime, nullable=True),  # None: no raise cooling off
    Column("updated_at", UtcDateTime, nullable=False),
    PrimaryKeyConstraint("player_id", "currency", "period"),
)

# Every change of a deposit limit, for the player's protection history (append-only).
deposit_limit_changes = Table(
    "deposit_limit_changes",
    metadata,
    Column("id", BigIntPK, primary_key=True, autoincrement=True),
    Column("player_id", ID, nullable=False, index=True),
    Column("currency", String(3), nullable=False),
    Column("period", String(8), nullable=False),
    Column("previous_amount", BigInteger, nullable=True),
    Column("requested_amount", BigInteger, nullable=True),
    Column("changed_by", String(140), nullable=False),  # role:id of who asked
    Column("changed_at", UtcDateTime, nullable=False),
    Column("effective_from", UtcDateTime, nullable=False),
)
