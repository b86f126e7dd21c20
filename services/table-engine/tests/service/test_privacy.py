"""P-1.4: private information reaches its owner alone. Whatever a subscriber to every public event (`table.#`),
a reader of the public REST API or of everyone's hand history receives, no card appears in it that was not
on the board or shown at the table. Hole cards travel only as private messages to their owner."""

from __future__ import annotations

import random
import re
from pathlib import Path

from platform_kit.events import table as contract
from table_harness import Harness, cards_in, running

PHH_CARD = re.compile(r"(?:d dh p\d+ |sm |d db )((?:[2-9TJQKA][cdhs])+)")


def phh_cards(text: str) -> set[str]:
    found = set()
    for group in PHH_CARD.findall(text):
        found |= {group[i : i + 2] for i in range(0, len(group), 2)}
    return found


async def play_hand_randomly(service: Harness, table_id: str, hand_id: str, rng: random.Random) -> None:
    while service.last(contract.HandStarted).hand_id == hand_id and not any(
        e.hand_id == hand_id for e in service.events(contract.HandCompleted)
    ):
        request = service.to_act()
        choice = rng.random()
        if request.min_raise_to is not None and choice < 0.2:
            amount = rng.randint(request.min_raise_to, request.max_raise_to or request.min_raise_to)
            await service.act(table_id, hand_id, request.player_id, "raise", amount)
        elif choice < 0.35 and not request.can_check:
            await service.act(table_id, hand_id, request.player_id, "fold")
        else:
            await service.act(table_id, hand_id, request.player_id, "check" if request.can_check else "call")


async def test_p1_4_no_public_event_rest_view_or_public_history_shows_a_hidden_card(tmp_path: Path) -> None:
    play = random.Random(2024)
    async with running(tmp_path / "privacy.db", rng=random.Random(99)) as service:
        await service.open_table("privacy-1", stacks=(3000, 3000, 3000, 3000, 3000))
        allowed: dict[str, set[str]] = {}  # hand -> cards anyone may have seen: the board and shown hands
        showdowns = mucks = 0
        for hand_no in range(1, 26):
            players = [s for s in (await service.get("/v1/tables/privacy-1")).json()["seats"] if s["stack"]]
            if len(players) < 2:
                break
            hand_id = await service.start_hand("privacy-1", hand_no=hand_no)
            mid_hand = (await service.get("/v1/tables/privacy-1")).json()
            assert cards_in(mid_hand) == set(mid_hand["hand"]["board"]) if mid_hand["hand"] else not cards_in(mid_hand)
            await play_hand_randomly(service, "privacy-1", hand_id, play)
            completed = service.last(contract.HandCompleted)
            allowed[hand_id] = set(completed.board) | {card for shown in completed.shown for card in shown.cards}
            showdown = [e for e in service.events(contract.ShowdownRevealed) if e.hand_id == hand_id]
            showdowns += bool(showdown)
            mucks += bool(showdown and showdown[0].mucked_seats)

            public_copy = (await service.http.get(f"/v1/hands/{hand_id}/phh")).text
            assert phh_cards(public_copy) <= allowed[hand_id]
            audit = (await service.get(f"/internal/v1/hands/{hand_id}/audit")).json()
            hidden = set(audit["deck"]) - allowed[hand_id]
            assert not hidden & phh_cards(public_copy)
            for busted in completed.busted_player_ids:
                await service.send(contract.UnseatPlayer(table_id="privacy-1", player_id=busted, reason="busted"))

        assert showdowns >= 3 and mucks >= 1, "the random play should reach showdowns, with a mucked hand"
        for key, envelope in service.messages():
            payload = envelope.payload
            if key.startswith("private."):
                continue
            assert key.startswith("table."), key
            assert envelope.type != contract.HoleCardsDealt.TYPE
            of_hand = payload.get("hand_id")
            visible = allowed.get(of_hand, set()) if of_hand else set()
            assert cards_in(payload) <= visible, (envelope.type, payload)


async def test_p1_4_hole_cards_go_to_their_owner_alone_by_private_routing(tmp_path: Path) -> None:
    async with running(tmp_path / "private.db") as service:
        await service.open_table("privacy-2")
        service.deck.deal(["AhAd", "KsKd", "7c2d"])
        hand_id = await service.start_hand("privacy-2")
        dealt = [
            (key, envelope.event())
            for key, envelope in service.messages()
            if envelope.type == contract.HoleCardsDealt.TYPE
        ]
        assert {key for key, _ in dealt} == {"private.table.hole_cards.dealt"}
        assert [(e.player_id, e.seat, e.cards, e.hand_id) for _, e in dealt] == [  # type: ignore[attr-defined]
            ("p2", 2, ["Ah", "Ad"], hand_id),
            ("p3", 3, ["Ks", "Kd"], hand_id),
            ("p1", 1, ["7c", "2d"], hand_id),
        ]
        await service.act("privacy-2", hand_id, "p1", "raise", 100)  # not p1's best idea
        await service.act("privacy-2", hand_id, "p9", "call")
        rejections = [key for key, envelope in service.messages() if envelope.type == contract.ActionRejected.TYPE]
        assert rejections == ["private.table.action.rejected"]


async def test_p1_4_each_copy_of_a_history_shows_its_reader_only_what_they_may_see(tmp_path: Path) -> None:
    async with running(tmp_path / "phh.db") as service:
        await service.open_table("privacy-3")
        service.deck.deal(["AhAd", "KsKd", "7c2d"])
        hand_id = await service.start_hand("privacy-3")
        assert (await service.get(f"/internal/v1/hands/{hand_id}/phh", player_id="p2")).status_code == 409
        await service.act("privacy-3", hand_id, "p1", "fold")
        await service.act("privacy-3", hand_id, "p2", "raise", 60)
        await service.act("privacy-3", hand_id, "p3", "fold")  # nobody shows anything

        public_copy = (await service.http.get(f"/v1/hands/{hand_id}/phh")).text
        assert phh_cards(public_copy) == set()
        assert public_copy.count("????") == 3 and 'players = ["p2", "p3", "p1"]' in public_copy
        p2_copy = (await service.get(f"/internal/v1/hands/{hand_id}/phh", player_id="p2")).text
        assert phh_cards(p2_copy) == {"Ah", "Ad"} and "finishing_stacks = [1020, 980, 1000]" in p2_copy
        p1_copy = (await service.get(f"/internal/v1/hands/{hand_id}/phh", player_id="p1")).text
        assert phh_cards(p1_copy) == {"7c", "2d"}
        assert (await service.get(f"/internal/v1/hands/{hand_id}/phh", player_id="p9")).status_code == 404

        without_token = await service.http.get(f"/internal/v1/hands/{hand_id}/phh", params={"player_id": "p2"})
        assert without_token.status_code == 401
        assert (await service.http.get(f"/internal/v1/hands/{hand_id}/audit")).status_code == 401
        audit = (await service.get(f"/internal/v1/hands/{hand_id}/audit")).json()
        assert len(audit["deck"]) == 52 and audit["deck"][:6] == ["Ah", "Ks", "7c", "Ad", "Kd", "2d"]
        assert phh_cards(audit["phh"]) == {"Ah", "Ad", "Ks", "Kd", "7c", "2d"}
