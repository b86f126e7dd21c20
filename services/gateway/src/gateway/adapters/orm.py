"""The gateway's tables: identities (concessionaires, players, staff), sessions (refresh tokens), partner webhooks,
partner API keys, the player restrictions mirrored from the sanctions registry and the failed log-ins per account.

Identifiers are 32-character hex strings (128 random bits): other services store them as opaque references.
Secrets are never stored: passwords as argon2 hashes, refresh tokens and API keys as SHA-256 digests.
"""

from platform_kit.db import BigIntPK, UtcDateTime
from platform_kit.runtime import add_messaging_tables
from sqlalchemy import (
    Boolean,
    Column,
    Date,
    ForeignKey,
    Index,
    Integer,
    MetaData,
    String,
    Table,
    Text,
    UniqueConstraint,
)

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


# Partner webhooks (issue 16). An endpoint's secret signs its deliveries, so it is kept (not a digest), and is
# shown to the partner once, at creation or rotation; during a rotation's overlap `previous_secret` signs too.
webhook_endpoints = Table(
    "webhook_endpoints",
    metadata,
    Column("id", String(ID), primary_key=True),
    Column("concessionaire_id", String(ID), ForeignKey("concessionaires.id"), nullable=False, index=True),
    Column("url", String(2000), nullable=False),
    Column("event_types", String(1000), nullable=False),  # space-separated partner event types
    Column("description", String(200), nullable=False),
    Column("secret", String(100), nullable=False),
    Column("previous_secret", String(100), nullable=True),
    Column("previous_secret_until", UtcDateTime(), nullable=True),
    Column("enabled", Boolean, nullable=False),
    Column("disabled_reason", String(20), nullable=True),  # by_request | failing
    Column("disabled_at", UtcDateTime(), nullable=True),
    Column("failing_since", UtcDateTime(), nullable=True),  # first failed attempt since the last success
    Column("lease_until", UtcDateTime(), nullable=True),  # a dispatcher is sending its head delivery
    Column("created_by", String(80), nullable=False),  # the principal's key
    Column("created_at", UtcDateTime(), nullable=False),
)

# The delivery outbox: one row per partner event and endpoint, written in the transaction that consumed the
# platform event; sent in `seq` order per endpoint. `body` is the exact JSON sent (signed at each attempt).
webhook_deliveries = Table(
    "webhook_deliveries",
    metadata,
    Column("seq", BigIntPK, primary_key=True, autoincrement=True),
    Column("endpoint_id", String(ID), ForeignKey("webhook_endpoints.id", ondelete="CASCADE"), nullable=False),
    Column("event_id", String(40), nullable=False),
    Column("event_type", String(60), nullable=False),
    Column("body", Text, nullable=False),
    Column("created_at", UtcDateTime(), nullable=False),
    Column("status", String(12), nullable=False),  # pending | delivered | failed
    Column("attempts", Integer, nullable=False),
    Column("next_attempt_at", UtcDateTime(), nullable=False),
    Column("first_attempt_at", UtcDateTime(), nullable=True),
    Column("last_attempt_at", UtcDateTime(), nullable=True),
    Column("last_status_code", Integer, nullable=True),
    Column("last_error", String(200), nullable=True),
    Column("delivered_at", UtcDateTime(), nullable=True),
    UniqueConstraint("endpoint_id", "event_id", name="uq_webhook_deliveries_endpoint_event"),
    Index("ix_webhook_deliveries_endpoint_status", "endpoint_id", "status", "seq"),
)

# What the partner is told about its endpoints (an endpoint disabled for failing), read through the API.
webhook_notices = Table(
    "webhook_notices",
    metadata,
    Column("id", BigIntPK, primary_key=True, autoincrement=True),
    Column("concessionaire_id", String(ID), ForeignKey("concessionaires.id"), nullable=False, index=True),
    Column("endpoint_id", String(ID), nullable=False),
    Column("kind", String(30), nullable=False),
    Column("message_en", String(500), nullable=False),
    Column("message_it", String(500), nullable=False),
    Column("created_at", UtcDateTime(), nullable=False),
)

# Player protection (issue 17, domain/protection.py): one row per player who set anything or logged in since.
# The session starts at the log-in; a self-exclusion's end None with `exclusion_term` set means permanent.
player_protection = Table(
    "player_protection",
    metadata,
    Column("player_id", String(ID), ForeignKey("players.id"), primary_key=True),
    Column("exclusion_term", String(12), nullable=True),  # 30_days | 60_days | 90_days | permanent
    Column("excluded_from", UtcDateTime(), nullable=True),
    Column("excluded_until", UtcDateTime(), nullable=True),
    Column("reality_check_minutes", Integer, nullable=True),
    Column("session_limit_minutes", Integer, nullable=True),
    Column("session_started_at", UtcDateTime(), nullable=True),
    Column("updated_at", UtcDateTime(), nullable=False),
)

# Every change of a protection setting (append-only), for the player and their concessionaire's staff.
protection_changes = Table(
    "protection_changes",
    metadata,
    Column("id", BigIntPK, primary_key=True, autoincrement=True),
    Column("player_id", String(ID), ForeignKey("players.id"), nullable=False, index=True),
    Column("setting", String(30), nullable=False),  # self_exclusion | reality_check | session_limit
    Column("value", String(40), nullable=True),  # the term, or minutes; None: switched off
    Column("changed_by", String(80), nullable=False),  # role:id
    Column("changed_at", UtcDateTime(), nullable=False),
    Column("effective_from", UtcDateTime(), nullable=False),
    Column("effective_until", UtcDateTime(), nullable=True),
)
