"""Tickets (P-3.4, P-10.12): an entry by ticket moves the ticket's value from the escrow that backs it, and an
entry by ticket given back comes back as a fresh ticket, its value staying in the escrow."""

from __future__ import annotations

from pathlib import Path

from director_harness import START, TOKEN, player_headers, running
from tournament_director.adapters import tickets
from tournament_director.adapters.tickets import Ticket
from tournament_director.api.schemas import TicketOut
from tournament_director.service import queries

PRICE = {"prize_part_cents": 900, "fee_cents": 100}


async def test_p3_4_p10_12_a_ticket_entry_and_its_return_as_a_fresh_ticket(tmp_path: Path) -> None:
    async with running(tmp_path) as platform:
        source = (await platform.create({"template": "six_max_sit_and_go", "name": "Src", "buy_in": PRICE}))[
            "tournament_id"
        ]
        await platform.fund("payer", 1_000)
        await platform.register(source, "payer")  # 9.00 now in the source's escrow: the value behind the ticket
        async with platform.service.runtime.db.transaction() as session:
            await tickets.issue(
                session,
                Ticket("TK-TEST", "tix", "EUR", 900, 100, "sit_and_go", source, "satellite", START),
            )
        t = (await platform.create({"template": "heads_up_sit_and_go", "name": "HU", "buy_in": PRICE}))["tournament_id"]

        entered = await platform.register(t, "tix", entry="ticket", ticket_code="TK-TEST")
        reused = await platform.register(t, "other", entry="ticket", ticket_code="TK-TEST")

        assert entered.status_code == 201 and entered.json()["entry"] == "ticket"
        assert reused.status_code == 404  # another player's ticket
        assert await platform.escrow(t) == 900 and await platform.escrow(source) == 0
        assert await platform.balance("tix") == 0
        left = await platform.unregister(t, "tix")
        assert left.status_code == 200 and left.json()["refunded_cents"] == 0
        mine = await platform.director.get(
            "/internal/v1/players/tix/tickets", headers={"X-Internal-Token": TOKEN, **player_headers("tix")}
        )
        codes = {ticket["code"]: ticket for ticket in mine.json()}
        # The answer's model has every field the director gives (issue 19: none dropped unseen).
        assert [set(t) for t in await queries.player_tickets(platform.service, "tix")] == [
            set(TicketOut.model_fields)
        ] * 2
        assert codes["TK-TEST"]["used_by_tournament_id"] == t
        [fresh] = [ticket for code, ticket in codes.items() if code != "TK-TEST"]
        assert (fresh["prize_part_cents"], fresh["fee_cents"], fresh["used_by_tournament_id"]) == (900, 100, None)
        assert await platform.escrow(t) == 900  # backs the fresh ticket until it is used
        again = await platform.register(t, "tix", entry="ticket", ticket_code=fresh["code"])
        assert again.status_code == 201 and await platform.escrow(t) == 900
