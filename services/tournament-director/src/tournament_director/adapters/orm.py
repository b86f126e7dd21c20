"""The tournament-director service's database tables.

- `tournaments`: what was created (definition, currency, sponsor, schedule) and where it is in its life
  (announced → registering → running → finished | cancelled).
- `runs`: a running tournament's `TournamentRun.to_json()` snapshot, saved in the same transaction as the
  commands and events the call produced; `next_clock_at` lets the clock loop find the runs it must wake, and
  `paused_at` lets the lobby show a pause without restoring the snapshot.
- `registrations`: who entered, how (buy-in, ticket, freeroll) and what they paid; `attempt` counts a player's
  registrations to the tournament, so that the wallet key of each is new and a retry's is the same.
- `standings`: finishing positions and prizes as they become known (eliminations, then the final ranking).
- `tickets`: codes that register their holder for free (P-3.4), given back for ticket entries of a cancelled
  tournament (P-10.12); the value stays in `source_tournament_id`'s escrow until the ticket is used.
- `outgoing_calls`: the money steps, every wallet call, written before it is made (derive key → record → call →
  commit), so a crash between the call and the commit is re-driven with the same idempotency key and never
  charges twice (the kit's table, platform_kit.outgoing_calls, with the player and the caller's key).
- `idempotency_keys`: each caller's Idempotency-Keys of registrations, unregistrations, purchases and
  cancellations, with the fingerprint of the request each named and its first answer (service/idempotent.py);
  `claim` is the token of the request running it while the answer is not in yet.
- `rebuy_offers`: open rebuy offers and when they lapse (P-4.2).
- `jackpot_funds`, `jackpot_streaks`: each programme's share of a concessionaire's jackpot fund and the
  players' win streaks (P-8.6).
"""

from __future__ import annotations

from platform_kit.db import UtcDateTime
from platform_kit.outgoing_calls import headers_column, outgoing_calls_table
from platform_kit.runtime import add_messaging_tables
from platform_kit.unit_of_work import reactions_table
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
    false,
)

metadata = MetaData()
add_messaging_tables(metadata)
reactions_table(metadata)  # the internal events not yet reacted to (service/events.py)

ID = String(64)


tournaments = Table(
    "tournaments",
    metadata,
    Column("tournament_id", ID, primary_key=True),
    Column("name", String(200), nullable=False),
    Column("kind", String(20), nullable=False),
    Column("status", String(20), nullable=False),
    Column("currency", String(3), nullable=False),
    #: The sponsor: pays overlays and freeroll entries; None for a network tournament without either.
    Column("concessionaire_id", ID, nullable=True),
    Column("created_by", ID, nullable=False),
    Column("template", String(64), nullable=True),
    Column("definition", Text, nullable=False),
    Column("jackpots", Text, nullable=False),
    Column("invited_player_ids", Text, nullable=False),
    Column("registration_opens_at", UtcDateTime, nullable=True),
    Column("starts_at", UtcDateTime, nullable=True),
    Column("created_at", UtcDateTime, nullable=False),
    Column("started_at", UtcDateTime, nullable=True),
    Column("ended_at", UtcDateTime, nullable=True),
    Column("end_reason", String(500), nullable=True),
    #: When every money step of the finish or cancellation was posted.
    Column("settled_at", UtcDateTime, nullable=True),
    #: A sit'n'go re-opened as an identical new tournament when it fills (service/recurring.py).
    Column("recurring", Boolean, nullable=False, server_default=false()),
    Index("ix_tournaments_status", "status"),
)

runs = Table(
    "runs",
    metadata,
    Column("tournament_id", ID, ForeignKey("tournaments.tournament_id"), primary_key=True),
    Column("state", Text, nullable=False),
    # Bumped by every save: a process's cached run is current while its version is (adapters.runs.RunCache).
    Column("version", BigInteger, nullable=False, server_default="0"),
    Column("next_clock_at", UtcDateTime, nullable=True),
    #: `TournamentRun.paused_at` of the snapshot (None once the run is over), written with it by every save.
    Column("paused_at", UtcDateTime, nullable=True),
    Column("updated_at", UtcDateTime, nullable=False),
    Index("ix_runs_next_clock_at", "next_clock_at"),
)

registrations = Table(
    "registrations",
    metadata,
    Column("tournament_id", ID, ForeignKey("tournaments.tournament_id"), nullable=False),
    Column("player_id", ID, nullable=False),
    Column("concessionaire_id", ID, nullable=False),
    Column("entry", String(20), nullable=False),
    Column("ticket_code", String(32), nullable=True),
    Column("status", String(20), nullable=False),
    Column("attempt", Integer, nullable=False),
    Column("prize_part_cents", BigInteger, nullable=False),
    Column("fee_cents", BigInteger, nullable=False),
    Column("registered_at", UtcDateTime, nullable=False),
    PrimaryKeyConstraint("tournament_id", "player_id"),
    Index("ix_registrations_player_id", "player_id"),
)

standings = Table(
    "standings",
    metadata,
    Column("tournament_id", ID, ForeignKey("tournaments.tournament_id"), nullable=False),
    Column("player_id", ID, nullable=False),
    Column("position", Integer, nullable=False),
    Column("prize_cents", BigInteger, nullable=False),
    Column("disqualified", Boolean, nullable=False),
    PrimaryKeyConstraint("tournament_id", "player_id"),
)

tickets = Table(
    "tickets",
    metadata,
    Column("code", String(32), primary_key=True),
    Column("player_id", ID, nullable=False),
    Column("currency", String(3), nullable=False),
    Column("prize_part_cents", BigInteger, nullable=False),
    Column("fee_cents", BigInteger, nullable=False),
    Column("tournament_kind", String(20), nullable=False),
    Column("source_tournament_id", ID, nullable=False),
    Column("issued_reason", String(20), nullable=False),
    Column("issued_at", UtcDateTime, nullable=False),
    Column("used_by_tournament_id", ID, nullable=True),
    Column("used_at", UtcDateTime, nullable=True),
    # A satellite's seat (P-3.4): for this target only while it is open to registration.
    Column("target_tournament_id", ID, nullable=True),
    # Whether the fee is still in the source's escrow (a satellite seat) or was kept by the concessionaire.
    Column("fee_in_escrow", Boolean, nullable=False, server_default=false()),
    # The director registers the holder to the target by itself (P-3.4's automatic registration).
    Column("automatic", Boolean, nullable=False, server_default=false()),
    Index("ix_tickets_player_id", "player_id"),
    Index("ix_tickets_automatic", "automatic"),
)

outgoing_calls = outgoing_calls_table(
    metadata,
    Column("player_id", ID, nullable=True),
    #: The caller's own Idempotency-Key, for purchases: the same key asks for the same rebuy, not another one.
    Column("client_key", String(200), nullable=True),
    #: A registration's entry is sent acting for the player's concessionaire (`X-Concessionaire-Id`).
    headers_column(),
)

idempotency_keys = Table(
    "idempotency_keys",
    metadata,
    #: The caller (`Principal.key_scope`): one caller's keys are never another's.
    Column("scope", String(200), nullable=False),
    Column("key", String(120), nullable=False),
    Column("fingerprint", String(64), nullable=False),
    Column("claim", String(32), nullable=False),
    Column("claimed_at", UtcDateTime, nullable=False),
    #: The first answer; None while the request that claimed the key is running.
    Column("status_code", Integer, nullable=True),
    Column("response", Text, nullable=True),
    Column("created_at", UtcDateTime, nullable=False),
    PrimaryKeyConstraint("scope", "key"),
    # The retention purge deletes the oldest answered keys first.
    Index("ix_idempotency_keys_created_at", "created_at"),
)

rebuy_offers = Table(
    "rebuy_offers",
    metadata,
    Column("tournament_id", ID, ForeignKey("tournaments.tournament_id"), nullable=False),
    Column("player_id", ID, nullable=False),
    Column("table_id", String(100), nullable=False),
    Column("expires_at", UtcDateTime, nullable=False),
    PrimaryKeyConstraint("tournament_id", "player_id"),
    Index("ix_rebuy_offers_expires_at", "expires_at"),
)

jackpot_funds = Table(
    "jackpot_funds",
    metadata,
    Column("programme_id", ID, nullable=False),
    Column("concessionaire_id", ID, nullable=False),
    Column("currency", String(3), nullable=False),
    Column("balance_cents", BigInteger, nullable=False),
    PrimaryKeyConstraint("programme_id", "concessionaire_id", "currency"),
)

jackpot_streaks = Table(
    "jackpot_streaks",
    metadata,
    Column("programme_id", ID, nullable=False),
    Column("player_id", ID, nullable=False),
    Column("streak", Integer, nullable=False),
    PrimaryKeyConstraint("programme_id", "player_id"),
)

#: The lobby's schedule as staff keep it (issue 17), besides the entries of the settings: an operator's entries
#: open tournaments of their concessionaire; a disabled entry opens nothing more (its row stays, for the record).
lobby_entries = Table(
    "lobby_entries",
    metadata,
    Column("key", String(24), primary_key=True),
    Column("concessionaire_id", ID, nullable=True),
    Column("body", Text, nullable=False),  # JSON: a creation body
    Column("every_minutes", Integer, nullable=True),
    Column("enabled", Boolean, nullable=False),
    Column("created_by", ID, nullable=False),
    Column("created_at", UtcDateTime, nullable=False),
    Column("disabled_at", UtcDateTime, nullable=True),
)
