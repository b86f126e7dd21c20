"""The gateway's tables: identities (concessionaires, players, staff), sessions (refresh tokens),
partner API keys, the player restrictions mirrored from the sanctions registry and the failed log-ins per account.

Identifiers are 32-character hex strings (128 random bits): other services store them as opaque references.
Secrets are never stored: passwords as argon2 hashes, refresh tokens and API keys as SHA-256 digests.
"""

from platform_kit.db import UtcDateTime
from platform_kit.runtime import add_messaging_tables
from sqlalchemy import Column, Date, ForeignKey, Index, Integer, MetaData, String, Table

metadata = MetaData()
add_messaging_tables(metadata)

ID = 32  # 128 random bits, hex


concessionaires = Table(
    "concessionaires",
    metadata,
    Column("id", String(ID), primary_key=True),
    Column("code", String(40), nullable=False, unique=True),
    Column("name", String(120), nullable=False),
    Column("created_at", UtcDateTime(), nullable=False),
)

players = Table(
    "players",
    metadata,
    Column("id", String(ID), primary_key=True),
    Column("nickname", String(20), nullable=False),
    # casefolded nickname: unique across the whole network, whatever the case the player typed
    Column("nickname_key", String(20), nullable=False, unique=True),
    Column("email", String(254), nullable=False, unique=True),
    Column("date_of_birth", Date, nullable=False),  # T-1.4
    Column("concessionaire_id", String(ID), ForeignKey("concessionaires.id"), nullable=False, index=True),
    Column("password_hash", String(200), nullable=False),
    Column("created_at", UtcDateTime(), nullable=False),
)

staff_members = Table(
    "staff_members",
    metadata,
    Column("id", String(ID), primary_key=True),
    Column("email", String(254), nullable=False, unique=True),
    Column("role", String(20), nullable=False),  # operator | admin
    Column("concessionaire_id", String(ID), ForeignKey("concessionaires.id"), nullable=True),
    Column("password_hash", String(200), nullable=False),
    Column("created_at", UtcDateTime(), nullable=False),
)

refresh_tokens = Table(
    "refresh_tokens",
    metadata,
    Column("id", String(ID), primary_key=True),
    Column("family_id", String(ID), nullable=False, index=True),
    Column("token_hash", String(64), nullable=False, unique=True),
    Column("subject_role", String(20), nullable=False),  # player | operator | admin
    Column("subject_id", String(ID), nullable=False),
    Column("issued_at", UtcDateTime(), nullable=False),
    Column("expires_at", UtcDateTime(), nullable=False),
    Column("used_at", UtcDateTime(), nullable=True),
    Column("revoked_at", UtcDateTime(), nullable=True),
    Index("ix_refresh_tokens_subject", "subject_role", "subject_id"),
)

api_keys = Table(
    "api_keys",
    metadata,
    Column("id", String(ID), primary_key=True),
    Column("concessionaire_id", String(ID), ForeignKey("concessionaires.id"), nullable=False, index=True),
    Column("prefix", String(16), nullable=False, unique=True),  # public part of the key, for lookup
    Column("secret_hash", String(64), nullable=False),
    Column("label", String(80), nullable=False),
    Column("created_by", String(ID), nullable=False),  # staff member id
    Column("created_at", UtcDateTime(), nullable=False),
    Column("revoked_at", UtcDateTime(), nullable=True),
)

# Restrictions decided in the sanctions registry (rating service), one row per decision: a player may have several
# at once (the standing is computed from all rows in force).
player_restrictions = Table(
    "player_restrictions",
    metadata,
    Column("id", String(64), primary_key=True),  # the sanction id, so a decision and its lifting meet here
    Column("player_id", String(ID), ForeignKey("players.id"), nullable=False, index=True),
    Column("kind", String(20), nullable=False),  # banned | chat_banned
    Column("until", UtcDateTime(), nullable=True),  # None: permanent
    Column("reason", String(500), nullable=False),
    Column("updated_at", UtcDateTime(), nullable=False),
)

# Failed log-ins per account (player or staff member: their ids never collide), read by every gateway instance so
# that the delay they impose cannot be dodged by landing on another one (domain/login_throttle.py). An attempt
# counts as failed from its start; a correct password deletes the row.
login_failures = Table(
    "login_failures",
    metadata,
    Column("subject_id", String(ID), primary_key=True),
    Column("failed_attempts", Integer, nullable=False),
    Column("last_attempt_at", UtcDateTime(), nullable=False),
)
