"""The table-engine service's database tables.

Every shard of the service shares this database; a table row names the shard that owns it. A table and its
seats are written at every hand boundary and after every applied action, so that a restarted shard knows which
hand was in progress (and voids it, P-10). The live `Hand` object itself is only in the owning shard's memory;
the `hands` row keeps what rebuilds it (configuration, deck, actions) for histories and audit.
"""

from platform_kit.db import BigIntPK, UtcDateTime
from platform_kit.runtime import add_messaging_tables
from sqlalchemy import (
    JSON,
    BigInteger,
    Boolean,
    Column,
    Integer,
    MetaData,
    PrimaryKeyConstraint,
    String,
    Table,
    UniqueConstraint,
)

metadata = MetaData()
add_messaging_tables(metadata)

tables = Table(
    "tables",
    metadata,
    Column("table_id", String(100), primary_key=True),
    Column("tournament_id", String(100), nullable=True, index=True),
    Column("shard", Integer, nullable=False, index=True),
    Column("max_seats", Integer, nullable=False),
    Column("betting_structure", String(20), nullable=False),
    Column("action_seconds", Integer, nullable=False),
    Column("time_bank_seconds", Integer, nullable=False),
    Column("disconnect_policy", JSON, nullable=False),
    Column("status", String(16), nullable=False),  # open | paused | closed
    Column("first_button", Integer, nullable=True),
    Column("positions", JSON, nullable=True),  # of the last completed hand: {button, small_blind, big_blind}
    Column("level", JSON, nullable=True),
    Column("hand_no", Integer, nullable=False),
    Column("current_hand_id", String(32), nullable=True),
    Column("public_state", JSON, nullable=True),  # the hand in progress as everyone sees it; no hidden card
    Column("hand_ended_at", UtcDateTime, nullable=True),  # the next hand waits for the pause after it
    # A StartHand kept until its pause is over, {hand_no, level, due_at}; SQL NULL (not JSON null) when none.
    Column("next_hand", JSON(none_as_null=True), nullable=True),
    # The seed of the last ended hand (hex), revealed: the next hand's public contribution (fair_deal.py).
    Column("last_seed", String(64), nullable=True),
    # The next hand's secret seed (hex), already committed to; never published before that hand has ended.
    Column("next_seed", String(64), nullable=True),
    # Player id -> the value each player contributed to the next hand's deck.
    Column("next_contributions", JSON(none_as_null=True), nullable=True),
    Column("opened_at", UtcDateTime, nullable=False),
    Column("updated_at", UtcDateTime, nullable=False),
)

seats = Table(
    "seats",
    metadata,
    Column("table_id", String(100), nullable=False),
    Column("seat", Integer, nullable=False),
    Column("player_id", String(100), nullable=False),
    Column("stack", BigInteger, nullable=False),  # chips behind (during a hand: not counting the street's bet)
    Column("sitting_out", Boolean, nullable=False),
    Column("sit_out_reason", String(16), nullable=True),
    Column("connected", Boolean, nullable=False),
    Column("time_bank_ms", BigInteger, nullable=False),
    Column("pending_chips", BigInteger, nullable=False),  # rebuys/add-ons waiting for the hand to end
    Column("leaving", String(20), nullable=True),  # an unseat waiting for the hand to end: its reason
    PrimaryKeyConstraint("table_id", "seat"),
    UniqueConstraint("table_id", "player_id", name="uq_seats_table_player"),
)

hands = Table(
    "hands",
    metadata,
    Column("seq", BigIntPK, primary_key=True, autoincrement=True),
    Column("hand_id", String(32), nullable=False, unique=True),
    Column("table_id", String(100), nullable=False, index=True),
    Column("tournament_id", String(100), nullable=True),
    Column("hand_no", Integer, nullable=False),
    Column("status", String(16), nullable=False),  # in_progress | completed | voided
    Column("level", JSON, nullable=False),
    Column("config", JSON, nullable=False),  # rules, positions, dealt-in seats and the stacks the engine plays
    Column("start_stacks", JSON, nullable=False),  # seat -> chips at the start of the hand (P-10)
    Column("set_aside", JSON, nullable=False),  # seat -> chips kept out of play by all-in protection (P-13.2)
    Column("actions", JSON, nullable=False),  # [[seat, kind, amount], ...] as the engine applied them
    Column("deck", String(104), nullable=False),  # the shuffled deck (P-1.3): audit only, never published
    # What the deck derives from (fair_deal.py): the secret seed (hex), revealed only once the hand has ended,
    # and the contributions. NULL for hands dealt before provably fair deals.
    Column("seed", String(64), nullable=True),
    Column("contributions", JSON(none_as_null=True), nullable=True),
    Column("end_stacks", JSON, nullable=True),
    Column("started_at", UtcDateTime, nullable=False),
    Column("ended_at", UtcDateTime, nullable=True),
)

protections = Table(
    "protections",
    metadata,
    Column("scope", String(120), nullable=False),  # "tournament:<id>", or "table:<id>" outside tournaments
    Column("player_id", String(100), nullable=False),
    Column("used", Integer, nullable=False),
    PrimaryKeyConstraint("scope", "player_id"),
)

chat_bans = Table(
    "chat_bans",
    metadata,
    Column("sanction_id", String(100), primary_key=True),
    Column("player_id", String(100), nullable=False, index=True),
    Column("kind", String(40), nullable=False),
    Column("starts_at", UtcDateTime, nullable=False),
    Column("ends_at", UtcDateTime, nullable=True),
)
