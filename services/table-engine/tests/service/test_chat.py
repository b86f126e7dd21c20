"""Table chat honours the rating service's sanctions (P-12.3, P-12.4): chat bans and bans silence a player
while they are in force; a lifted sanction no longer does."""

from __future__ import annotations

from collections.abc import AsyncIterator
from datetime import timedelta
from pathlib import Path

import pytest
from platform_kit.events import rating
from platform_kit.events import table as contract
from table_harness import START, Harness, running


@pytest.fixture
async def service(tmp_path: Path) -> AsyncIterator[Harness]:
    async with running(tmp_path / "chat.db") as harness:
        await harness.open_table("chat")
        yield harness


async def say(service: Harness, player_id: str, text: str) -> str | None:
    """What happened to the line: None when posted, else the rejection code."""
    published = len(service.messages())
    await service.send(contract.PostChat(table_id="chat", player_id=player_id, text=text))
    (key, envelope), *more = service.messages()[published:]
    assert not more
    if envelope.type == contract.ChatPosted.TYPE:
        assert key == "table.chat.posted" and envelope.payload["text"] == text
        return None
    assert key == "private.table.action.rejected"
    assert envelope.payload["player_id"] == player_id and envelope.payload["hand_id"] is None
    return str(envelope.payload["code"])


def sanction(kind: str, *, sanction_id: str, hours: float | None) -> rating.SanctionDecided:
    ends = None if hours is None else (START + timedelta(hours=hours)).isoformat()
    return rating.SanctionDecided(
        sanction_id=sanction_id,
        player_id="p1",
        kind=kind,
        tournament_id=None,
        starts_at=(START - timedelta(minutes=1)).isoformat(),
        ends_at=ends,
        reason="insults",
    )


async def test_p12_3_a_temporary_chat_ban_silences_the_player_until_it_ends(service: Harness) -> None:
    assert await say(service, "p1", "good luck all") is None
    await service.publish(sanction("temporary_chat_ban", sanction_id="s-1", hours=1))
    assert await say(service, "p1", "you are all donkeys") == "chat_banned"
    assert await say(service, "p2", "nice hand") is None
    service.clock.advance(timedelta(hours=1))
    assert await say(service, "p1", "sorry") is None


async def test_p12_4_a_lifted_permanent_chat_ban_no_longer_silences(service: Harness) -> None:
    await service.publish(sanction("permanent_chat_ban", sanction_id="s-2", hours=None))
    assert await say(service, "p1", "hello?") == "chat_banned"
    await service.publish(
        rating.SanctionLifted(
            sanction_id="s-2", player_id="p1", kind="permanent_chat_ban", reason="overturned_on_appeal"
        )
    )
    assert await say(service, "p1", "thank you") is None


async def test_p12_3_bans_silence_too_and_warnings_do_not(service: Harness) -> None:
    await service.publish(sanction("written_warning", sanction_id="s-3", hours=None))
    assert await say(service, "p1", "ok") is None
    await service.publish(sanction("temporary_ban", sanction_id="s-4", hours=24))
    assert await say(service, "p1", "still here") == "chat_banned"


async def test_only_seated_players_chat(service: Harness) -> None:
    assert await say(service, "railbird", "hi") == "not_seated"
