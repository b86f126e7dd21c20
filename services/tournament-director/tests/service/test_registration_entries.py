"""The words a registration names its entry with (`platform_kit.events.tournament.RegistrationEntry`): a
freeroll's free entry is one of them (P-9.1); naming it never registers anyone in a paid tournament."""

from __future__ import annotations

from datetime import timedelta
from pathlib import Path

from director_harness import OPERATOR, START, running
from platform_kit.events import tournament as events

PRICE = {"prize_part_cents": 900, "fee_cents": 100}


async def test_p9_1_a_freeroll_entry_named_as_such_registers_for_free(tmp_path: Path) -> None:
    async with running(tmp_path) as platform:
        body = {"template": "freeroll", "name": "Freeroll", "starts_at": (START + timedelta(hours=1)).isoformat()}
        t = (await platform.create(body, headers=OPERATOR))["tournament_id"]

        answer = await platform.register(t, "ann", entry="freeroll")

        assert answer.status_code == 201, answer.text
        assert answer.json()["entry"] == "freeroll" and answer.json()["registered"] == 1
        await platform.published()
        assert [(e.player_id, e.entry) for e in platform.events(events.PlayerRegistered)] == [("ann", "freeroll")]
        assert await platform.balance("ann") == 0  # nothing was asked of the player


async def test_p9_1_a_freeroll_entry_to_a_paid_tournament_is_refused_and_charges_nothing(tmp_path: Path) -> None:
    async with running(tmp_path) as platform:
        t = (await platform.create({"template": "heads_up_sit_and_go", "name": "HU", "buy_in": PRICE}))["tournament_id"]
        await platform.fund("ann", 1_000)

        refused = await platform.register(t, "ann", entry="freeroll")

        assert (refused.status_code, refused.json()["code"]) == (422, "not_a_freeroll")
        assert (await platform.tournament(t))["registered"] == 0
        assert await platform.balance("ann") == 1_000 and await platform.escrow(t) == 0
