"""A player's self-exclusion (issue 17, docs/player-protection.md): `gateway.player.self_excluded` withdraws and
refunds every registration of theirs for a tournament not yet started, exactly once however often it arrives."""

from __future__ import annotations

from pathlib import Path

from director_harness import START, running
from platform_kit.bus import Envelope
from platform_kit.events import gateway as gateway_events
from platform_kit.events import tournament as events
from platform_kit.testing import eventually

PRICE = {"prize_part_cents": 900, "fee_cents": 100}
FUNDS = 5_000


def self_excluded(player: str) -> gateway_events.PlayerSelfExcluded:
    return gateway_events.PlayerSelfExcluded(
        player_id=player, concessionaire_id="c1", term="90_days", starts_at=START, ends_at=None
    )


async def test_a_self_excluded_players_open_registrations_are_withdrawn_and_refunded_once(tmp_path: Path) -> None:
    async with running(tmp_path) as platform:
        six = {"template": "six_max_sit_and_go", "buy_in": PRICE}
        first = (await platform.create({**six, "name": "First"}))["tournament_id"]
        second = (await platform.create({**six, "name": "Second"}))["tournament_id"]
        for player in ("ann", "bob"):
            await platform.fund(player, FUNDS)
        for tournament in (first, second):
            assert (await platform.register(tournament, "ann")).status_code == 201
        assert (await platform.register(first, "bob")).status_code == 201
        assert await platform.balance("ann") == FUNDS - 2_000

        envelope = Envelope.wrap(self_excluded("ann"), producer="gateway")
        await platform.bus.publish(envelope.outgoing())
        await platform.bus.publish(envelope.outgoing())  # a redelivery: the inbox makes it a no-op

        async def both_refunded() -> list[events.PlayerUnregistered]:
            found = [e for e in platform.events(events.PlayerUnregistered) if e.player_id == "ann"]
            return found if len(found) >= 2 else []

        left = await eventually(both_refunded, timeout=10)
        assert {(e.tournament_id, e.reason, e.refunded_cents) for e in left} == {
            (first, "self_exclusion", 1_000),
            (second, "self_exclusion", 1_000),
        }
        await platform.published()
        assert len([e for e in platform.events(events.PlayerUnregistered) if e.player_id == "ann"]) == 2
        assert await platform.balance("ann") == FUNDS
        assert (await platform.tournament(first))["registered"] == 1  # bob stays
        assert await platform.balance("bob") == FUNDS - 1_000
        assert await platform.reconciled()
