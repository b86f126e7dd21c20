"""Reading the facts the checks judge: from the services' REST APIs where they show them, else (read-only) from
their databases — the outbox and inbox tables, and the table engine's hand records."""

from __future__ import annotations

import asyncio
import json
from collections import defaultdict
from collections.abc import Iterable
from typing import Any

from tournament_director.domain.definition import TournamentDefinition

from harness.broker import VirtualHost
from harness.invariants.chips import HandChips
from harness.invariants.messaging import OutboxRow, durable_patterns
from harness.invariants.prizes import EscrowLine, TournamentMoney
from harness.processes import START_ORDER
from harness.readers import Readers


async def tournament_money(readers: Readers, tournament_id: str, definition: TournamentDefinition) -> TournamentMoney:
    detail = await readers.get("tournament-director", f"/v1/tournaments/{tournament_id}")
    standings = await readers.get("tournament-director", f"/v1/tournaments/{tournament_id}/standings")
    ledger = await readers.get("wallet", f"/internal/v1/tournaments/{tournament_id}")
    escrow = ledger["escrow"]
    lines: list[EscrowLine] = []
    if escrow is not None:
        for item in await readers.pages("wallet", f"/internal/v1/accounts/{escrow['id']}/statement"):
            other = item["counterparty"]
            player = other["owner"] if other["kind"] == "player" else None
            lines.append(EscrowLine(item["operation_id"], item["operation_kind"], player, item["amount"]))
    ranked = [p for p in standings["players"] if p.get("position") is not None]
    purchases = await applied_purchases(readers, tournament_id)
    return TournamentMoney(
        tournament_id=tournament_id,
        definition=definition,
        status=detail["status"],
        escrow_balance=0 if escrow is None else escrow["balance"] + escrow["held"],
        lines=tuple(lines),
        positions={p["player_id"]: p["position"] for p in ranked},
        reported_prizes={p["player_id"]: p.get("prize_cents") or 0 for p in ranked},
        applied_purchases=len(purchases),
        purchased_chips=sum(purchase["chips"] for purchase in purchases),
        tax_base_cents=sum(line["amount"] for line in ledger["tax_base"]),
        tax_base_entries=sum(line["entries"] for line in ledger["tax_base"]),
    )


async def applied_purchases(readers: Readers, tournament_id: str) -> list[dict[str, Any]]:
    """The rebuys and add-ons the director applied: its `tournament.entry.purchased` events (its outbox, since
    no API lists them)."""
    rows = await readers.rows(
        "tournament-director", "SELECT envelope FROM outbox WHERE event_type = 'tournament.entry.purchased'"
    )
    payloads = [json.loads(row["envelope"])["payload"] for row in rows]
    return [payload for payload in payloads if payload["tournament_id"] == tournament_id]


async def tournament_hands(readers: Readers, tournament_id: str) -> list[HandChips]:
    """Every hand of the tournament, in the order they ended (unfinished ones last)."""
    rows = await readers.rows(
        "table-engine",
        "SELECT hand_id, table_id, status, start_stacks, end_stacks FROM hands WHERE tournament_id = $1 "
        "ORDER BY ended_at NULLS LAST, seq",
        tournament_id,
    )
    return [
        HandChips(
            hand_id=row["hand_id"],
            table_id=row["table_id"],
            status=row["status"],
            start=_seat_map(row["start_stacks"]),
            end=None if row["end_stacks"] is None else _seat_map(row["end_stacks"]),
        )
        for row in rows
    ]


def _seat_map(value: str | dict[str, int]) -> dict[int, int]:
    found = json.loads(value) if isinstance(value, str) else value
    return {int(seat): int(chips) for seat, chips in found.items()}


async def outbox_rows(readers: Readers) -> list[OutboxRow]:
    async def of(service: str) -> list[OutboxRow]:
        rows = await readers.rows(service, "SELECT message_id, routing_key, published_at FROM outbox")
        return [OutboxRow(service, r["message_id"], r["routing_key"], r["published_at"] is not None) for r in rows]

    found = await asyncio.gather(*(of(service) for service in START_ORDER))
    return [row for rows in found for row in rows]


async def inboxes(readers: Readers) -> dict[str, set[str]]:
    """consumer (= its queue) → the message ids it applied, over every service."""
    applied: dict[str, set[str]] = defaultdict(set)
    for service in START_ORDER:
        for row in await readers.rows(service, "SELECT consumer, message_id FROM inbox"):
            applied[row["consumer"]].add(row["message_id"])
    return dict(applied)


async def delivery_facts(
    readers: Readers, vhost: VirtualHost
) -> tuple[list[OutboxRow], dict[str, set[str]], dict[str, list[str]], list[Any]]:
    outbox, applied = await outbox_rows(readers), await inboxes(readers)
    queues = await vhost.queues()
    inbox_queues = [q.name for q in queues if not q.name.endswith(".dead") and _inbox_backed(q.name)]
    return outbox, applied, durable_patterns(await vhost.bindings(), inbox_queues), queues


def _inbox_backed(queue: str) -> bool:
    """Durable service queues keep an inbox; a gateway's per-instance fan-out queue (`<service>.instance.<id>`)
    does not."""
    return ".instance." not in queue


#: Player reads in flight at once: a capacity run's 3,000 players read all at once queued for the HTTP client's
#: pool past its time-out, and the checks failed on their own reads (PoolTimeout), not on the platform.
PLAYER_READS_IN_FLIGHT = 16


async def rating_histories(readers: Readers, players: Iterable[str]) -> dict[str, list[dict[str, Any]]]:
    gate = asyncio.Semaphore(PLAYER_READS_IN_FLIGHT)

    async def of(player: str) -> tuple[str, list[dict[str, Any]]]:
        async with gate:
            rating = await readers.get("rating", f"/internal/v1/players/{player}/rating")
        return player, rating["history"]

    return dict(await asyncio.gather(*(of(player) for player in sorted(set(players)))))


async def draw_facts(readers: Readers, draw_id: str, bettors: Iterable[str]) -> dict[str, Any]:
    """What `draws.draw_problems` takes, by keyword."""
    draw = await readers.get("totalizator", f"/internal/v1/draws/{draw_id}")
    coupons: list[dict[str, Any]] = []
    for player in bettors:
        coupons += await readers.get("totalizator", f"/internal/v1/players/{player}/coupons", {"draw_id": draw_id})
    pools = (await readers.get("wallet", f"/internal/v1/draws/{draw_id}"))["pools"]
    wallet_paid: dict[str, int] = defaultdict(int)
    for pool in pools:
        for line in await readers.pages("wallet", f"/internal/v1/accounts/{pool['id']}/statement"):
            if line["operation_kind"] == "draw_payout":
                wallet_paid[line["counterparty"]["owner"]] -= line["amount"]
    return {
        "draw": draw,
        "transfers": await readers.get("totalizator", f"/internal/v1/draws/{draw_id}/transfers"),
        "report": await readers.get("totalizator", f"/v1/draws/{draw_id}/settlement"),
        "pools": pools,
        "coupons": coupons,
        "exponents": {c["code"]: c["minor_units"] for c in await readers.get("wallet", "/internal/v1/currencies")},
        "wallet_paid": dict(wallet_paid),
    }
