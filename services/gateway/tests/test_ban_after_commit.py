"""P-12.5: a ban closes the player's sockets only once it is committed. Closed before, a client reconnecting at
once could be admitted by a standing read that did not see the ban yet, and then stay connected."""

from __future__ import annotations

from gateway.service.sanctions import SanctionConsumer
from gateway_test_support import Driver
from platform_kit.bus import Envelope
from platform_kit.events.rating import SanctionDecided


def ban(player_id: str) -> Envelope:
    decided = SanctionDecided(
        sanction_id="s-1",
        player_id=player_id,
        kind="permanent_ban",
        tournament_id=None,
        ban_scope="network",
        starts_at="2026-03-01T12:00:00+00:00",
        ends_at=None,
        reason="collusion",
    )
    return Envelope.wrap(decided, producer="rating")


class RolledBack(Exception):
    pass


async def test_p12_5_sockets_are_closed_after_the_ban_commits_and_not_if_it_rolls_back(driver: Driver) -> None:
    player_id = (await driver.player_session("Cheater"))["principal"]["id"]
    closed: list[str] = []
    consumer = SanctionConsumer(driver.services.context.clock, on_ban=closed.append)
    db = driver.services.context.db

    try:
        async with db.transaction() as session:
            await consumer.decided(session, ban(player_id))
            assert closed == []  # recorded, not yet committed: nobody is closed on the strength of it
            raise RolledBack()
    except RolledBack:
        pass
    assert closed == []

    async with db.transaction() as session:
        await consumer.decided(session, ban(player_id))
    assert closed == [player_id]
