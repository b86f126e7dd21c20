"""The concessionaire that organises a tournament, as the tournament director records it (the demo scope and
the hand audits both decide by it)."""

from __future__ import annotations

from urllib.parse import quote

from gateway.adapters.service_client import ServiceClient


async def tournament_organiser(director: ServiceClient, tournament_id: str) -> str | None:
    """None for the network's own tournament. A missing tournament raises the director's 404 as it came
    (`DownstreamProblem`)."""
    answer = await director.request("GET", f"/v1/tournaments/{quote(tournament_id, safe='')}")
    organiser = answer.json().get("concessionaire_id")
    return organiser if isinstance(organiser, str) else None
