"""What the lobby, a tournament's page, its standings and a player's list show (read-only)."""

from __future__ import annotations

from typing import Any

from platform_kit.errors import NotFound
from sqlalchemy.ext.asyncio import AsyncSession

from tournament_director.adapters import runs, tickets, tournaments
from tournament_director.adapters.tournaments import Listed, RegistrationStatus, Status, TournamentRecord
from tournament_director.domain.kinds import TournamentKind
from tournament_director.domain.run import TournamentRun
from tournament_director.service.context import Director

#: Registrations a player's list leaves out: payments refused.
NOT_LISTED = (RegistrationStatus.FAILED,)


def _iso(value: Any) -> str | None:
    return None if value is None else value.isoformat()


async def lobby(director: Director, status: str | None, kind: str | None) -> list[dict[str, Any]]:
    async with director.runtime.units.reading() as session:
        return [_lobby_item(listed) for listed in await tournaments.listing(session, status=status, kind=kind)]


def _lobby_item(listed: Listed) -> dict[str, Any]:
    tournament = listed.tournament
    definition = tournament.definition
    return {
        "tournament_id": tournament.tournament_id,
        "name": tournament.name,
        "kind": tournament.kind,
        "concessionaire_id": tournament.concessionaire_id,
        "status": tournament.status.value,
        "currency": tournament.currency,
        "buy_in_prize_cents": definition.buy_in.prize_part_cents,
        "buy_in_fee_cents": definition.buy_in.fee_cents,
        "registered": listed.registered,
        "min_players": definition.min_players,
        "max_players": definition.max_players,
        "starts_at": _iso(tournament.starts_at),
        "betting_structure": definition.betting_structure.value,
        "table_mode": definition.tables.mode.value,
        "guarantee_cents": definition.guarantee_cents,
        "freeroll": definition.freeroll is not None,
        "recurring": tournament.recurring,
        "paused_at": _iso(listed.paused_at),
    }


async def details(director: Director, tournament_id: str) -> dict[str, Any]:
    """The lobby fields, the definition, the payout schedule for the current field, the clock and the tables."""
    async with director.runtime.units.reading() as session:
        listed = await tournaments.listed(session, tournament_id)
        if listed is None:
            raise _not_found(tournament_id)
        run = await runs.peek(session, tournament_id, director.rng, director.run_cache)
    tournament = listed.tournament
    item = _lobby_item(listed)
    definition = tournament.definition
    if run is not None:
        entrants = len(run.entries)
    elif definition.kind is TournamentKind.SIT_AND_GO:
        entrants = definition.max_players
    else:
        entrants = max(item["registered"], 1)
    try:
        schedule: dict[str, Any] | None = {
            "entrants": entrants,
            "shares_bps": list(definition.payout_schedule(entrants).shares_bps),
        }
    except ValueError:
        schedule = None  # no bracket of the tournament's own schedule covers this field yet
    return {
        **item,
        "registration_opens_at": _iso(tournament.registration_opens_at),
        "started_at": _iso(tournament.started_at),
        "ended_at": _iso(tournament.ended_at),
        "end_reason": tournament.end_reason,
        "settled": tournament.settled_at is not None,
        "jackpots": [programme.model_dump(mode="json") for programme in tournament.jackpots],
        "definition": definition.model_dump(mode="json"),
        "payout_schedule": schedule,
        **_play(run),
    }


def _play(run: TournamentRun | None) -> dict[str, Any]:
    """The live part of a tournament's page: prize pool and prizes, clock, tables."""
    if run is None:
        return {
            "prize_pool_cents": None,
            "prizes_cents": None,
            "satellite_seats": None,
            "players_left": None,
            "clock": None,
            "tables": [],
        }
    pool = run.prize_pool().pool_cents
    prizes = run.prizes()
    clock = None
    if not run.is_over:
        reading = run.clock_reading()  # pauses left out
        next_change = run.next_clock_change()
        clock = {
            "level": reading.level_number,
            "on_break": reading.on_break is not None,
            "small_blind": reading.level.small_blind,
            "big_blind": reading.level.big_blind,
            "ante": reading.level.ante,
            "ends_at": _iso(next_change),
            "hand_for_hand": run.hand_for_hand,
            "paused_at": _iso(run.paused_at),  # paused for a technical problem: no change is due, no hand dealt
        }
    return {
        "prize_pool_cents": pool,
        "prizes_cents": list(prizes.amounts),
        "satellite_seats": prizes.seats,
        "players_left": len(run.players_left),
        "clock": clock,
        "tables": []
        if run.is_over
        else [
            {
                "table_id": table_id,
                "players": [{"seat": p.seat, "player_id": p.player_id, "chips": p.stack} for p in seated],
            }
            for table_id, seated in run.tables().items()
        ],
    }


async def standings(director: Director, tournament_id: str) -> dict[str, Any]:
    """Players still in (by chips) then the eliminated (by position)."""
    async with director.runtime.units.reading() as session:
        tournament = await _get(session, tournament_id)
        run = await runs.peek(session, tournament_id, director.rng, director.run_cache)
        ranked = await tournaments.standings_of(session, tournament_id)
        registered = await tournaments.registrations_of(session, tournament_id, [RegistrationStatus.REGISTERED])
    players: list[dict[str, Any]] = []
    if run is None:
        players = [{"player_id": r.player_id, "chips": None, "table_id": None, "seat": None} for r in registered]
    elif tournament.status is Status.RUNNING:
        seated = [(table_id, p) for table_id, table in run.tables().items() for p in table]
        for table_id, p in sorted(seated, key=lambda item: (-item[1].stack, item[1].player_id)):
            players.append({"player_id": p.player_id, "chips": p.stack, "table_id": table_id, "seat": p.seat})
    for standing in sorted(ranked.values(), key=lambda s: (s.position, s.player_id)):
        players.append(
            {
                "player_id": standing.player_id,
                "chips": 0,
                "table_id": None,
                "seat": None,
                "position": standing.position,
                "prize_cents": standing.prize_cents,
                "disqualified": standing.disqualified,
            }
        )
    return {"tournament_id": tournament_id, "status": tournament.status.value, "players": players}


async def player_tournaments(director: Director, player_id: str) -> list[dict[str, Any]]:
    async with director.runtime.units.reading() as session:
        entries = [
            r for r in await tournaments.registrations_of_player(session, player_id) if r.status not in NOT_LISTED
        ]
        listed = []
        for registration in entries:
            tournament = await _get(session, registration.tournament_id)
            item: dict[str, Any] = {
                "tournament_id": tournament.tournament_id,
                "name": tournament.name,
                "status": tournament.status.value,
                "registration": registration.status.value,
                "entry": registration.entry,
                "concessionaire_id": registration.concessionaire_id,
                "table_id": None,
                "seat": None,
                "chips": None,
            }
            if tournament.status is Status.RUNNING:
                run = await runs.peek(session, tournament.tournament_id, director.rng, director.run_cache)
                seat = None if run is None else run.seat_of(player_id)
                if run is not None and seat is not None:
                    item.update(table_id=seat[0], seat=seat[1], chips=run.chips.get(player_id))
            standing = await tournaments.standing_of(session, tournament.tournament_id, player_id)
            if standing is not None:
                item.update(position=standing.position, prize_cents=standing.prize_cents)
            listed.append(item)
    return listed


async def player_tickets(director: Director, player_id: str) -> list[dict[str, Any]]:
    async with director.runtime.units.reading() as session:
        found = await tickets.of_player(session, player_id)
    return [
        {
            "code": ticket.code,
            "currency": ticket.currency,
            "prize_part_cents": ticket.prize_part_cents,
            "fee_cents": ticket.fee_cents,
            "tournament_kind": ticket.tournament_kind,
            "issued_reason": ticket.issued_reason,
            "issued_at": _iso(ticket.issued_at),
            "source_tournament_id": ticket.source_tournament_id,
            "target_tournament_id": ticket.target_tournament_id,
            "used_by_tournament_id": ticket.used_by_tournament_id,
        }
        for ticket in found
    ]


async def _get(session: AsyncSession, tournament_id: str) -> TournamentRecord:
    tournament = await tournaments.get(session, tournament_id)
    if tournament is None:
        raise _not_found(tournament_id)
    return tournament


def _not_found(tournament_id: str) -> NotFound:
    return NotFound("tournament_not_found", f"No tournament {tournament_id}.")
