"""Provably fair deals through the service (P-1.3, P-1.4, docs/fair-deal.md): the table publishes the
commitment to each deck before the first card, reveals the seed and contributions only once the hand has
ended, and `table-engine verify-deal` checks a hand the engine really played from its history or audit."""

from __future__ import annotations

import hashlib
import json
import random
import re
from pathlib import Path

import pytest
from platform_kit.events import table as contract
from table_engine.cli import main
from table_harness import Harness, running
from test_privacy import play_hand_randomly

SEED_FIELD = re.compile(r'^_deck_seed = "([0-9a-f]{64})"$', re.MULTILINE)


def revealed_seed(phh: str) -> str:
    found = SEED_FIELD.search(phh)
    assert found, phh
    return found.group(1)


def verify_deal(path: Path, *options: str) -> int:
    return main(["verify-deal", "--hand", str(path), *options])


async def play_one(service: Harness, table_id: str, hand_no: int, play: random.Random) -> str:
    hand_id = await service.start_hand(table_id, hand_no=hand_no)
    await play_hand_randomly(service, table_id, hand_id, play)
    return hand_id


async def test_p1_3_a_played_hand_is_committed_before_the_deal_revealed_after_it_and_verifies(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    async with running(tmp_path / "fair.db", rng=random.Random(41)) as service:
        await service.open_table("fair-1", stacks=(2000, 2000, 2000, 2000))
        hand_id = await service.start_hand("fair-1")
        published = service.last(contract.HandStarted).deck_commitment
        assert published is not None and re.fullmatch(r"[0-9a-f]{64}", published)
        view = (await service.get("/v1/tables/fair-1")).json()
        assert view["hand"]["deck_commitment"] == published
        assert (await service.get(f"/v1/hands/{hand_id}/phh")).status_code == 409
        await play_hand_randomly(service, "fair-1", hand_id, random.Random(8))
        during = [envelope.payload for _, envelope in service.messages()]

        public_copy = (await service.http.get(f"/v1/hands/{hand_id}/phh")).text
        seed = revealed_seed(public_copy)
        assert hashlib.sha256(bytes.fromhex(seed)).hexdigest() == published
        # P-1.4: until the end, only the hash was out, on every channel (private messages included).
        assert seed not in json.dumps(during) and seed not in json.dumps(view)
        assert '_deck_contributions = ["fair-1"]' in public_copy  # the first hand: the table id

        audit = (await service.get(f"/internal/v1/hands/{hand_id}/audit")).json()
        assert (audit["seed"], audit["commitment"], audit["contributions"]) == (seed, published, ["fair-1"])
        players_copy = (await service.get(f"/internal/v1/hands/{hand_id}/phh", player_id="p2")).text
        files = {"public.phh": public_copy, "p2.phh": players_copy, "audit.json": json.dumps(audit)}
        for name, text in files.items():
            (tmp_path / name).write_text(text, encoding="utf-8")
            capsys.readouterr()
            assert verify_deal(tmp_path / name, "--commitment", published) == 0, capsys.readouterr().out
            assert capsys.readouterr().out.endswith("follows from the seed and the contributions\n")
        assert "checked       52 cards of the recorded deck" in _output_of(capsys, tmp_path / "audit.json")

        second = await play_one(service, "fair-1", 2, random.Random(9))
        second_copy = (await service.http.get(f"/v1/hands/{second}/phh")).text
        assert f'_deck_contributions = ["{seed}"]' in second_copy  # the previous hand's revealed seed
        assert revealed_seed(second_copy) != seed


def _output_of(capsys: pytest.CaptureFixture[str], path: Path) -> str:
    capsys.readouterr()
    verify_deal(path)
    return capsys.readouterr().out


async def test_p1_3_verify_deal_finds_a_tampered_seed_contribution_commitment_or_card(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    async with running(tmp_path / "tamper.db", rng=random.Random(42)) as service:
        await service.open_table("fair-2")
        hand_id = await play_one(service, "fair-2", 1, random.Random(3))
        published = service.last(contract.HandStarted).deck_commitment
        assert published is not None
        audit = (await service.get(f"/internal/v1/hands/{hand_id}/audit")).json()
        public_copy = (await service.http.get(f"/v1/hands/{hand_id}/phh")).text

    seed = audit["seed"]
    other_seed = ("1" if seed[0] == "0" else "0") + seed[1:]
    deck = audit["deck"]
    tampered = {
        "seed.phh": public_copy.replace(seed, other_seed),
        "contribution.json": json.dumps({**audit, "contributions": ["fair-x"]}),
        "commitment.json": json.dumps({**audit, "commitment": "0" * 64}),
        "card.json": json.dumps({**audit, "deck": [deck[1], deck[0], *deck[2:]]}),
    }
    for name, text in tampered.items():
        (tmp_path / name).write_text(text, encoding="utf-8")
        assert verify_deal(tmp_path / name) == 1, name
        assert "MISMATCH: " in capsys.readouterr().out
    (tmp_path / "fine.phh").write_text(public_copy, encoding="utf-8")
    assert verify_deal(tmp_path / "fine.phh", "--commitment", "f" * 64) == 1  # not what was published
    assert verify_deal(tmp_path / "fine.phh", "--commitment", published) == 0
    (tmp_path / "junk.json").write_text("[1, 2]", encoding="utf-8")
    assert verify_deal(tmp_path / "junk.json") == 2


async def test_p1_3_a_rigged_deck_is_found_the_dealer_stacks_cards_the_seed_does_not_give(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    async with running(tmp_path / "rigged.db") as service:  # StackedDeck: decks chosen, not derived
        await service.open_table("fair-3")
        service.deck.deal(["AhAd", "KsKd", "7c2d"])
        hand_id = await service.start_hand("fair-3")
        await service.act("fair-3", hand_id, "p1", "fold")
        await service.act("fair-3", hand_id, "p2", "fold")
        audit = (await service.get(f"/internal/v1/hands/{hand_id}/audit")).json()
    (tmp_path / "rigged.json").write_text(json.dumps(audit), encoding="utf-8")
    assert verify_deal(tmp_path / "rigged.json") == 1
    assert "the recorded deck, deck position 0: Ah, where the seed gives" in capsys.readouterr().out


async def test_p10_a_crash_mid_hand_voids_it_reveals_its_seed_and_the_next_hand_draws_a_new_one(
    tmp_path: Path,
) -> None:
    database = tmp_path / "crash.db"
    async with running(database, rng=random.Random(1)) as before:
        await before.open_table("fair-4")
        voided_id = await before.start_hand("fair-4")
        voided_commitment = before.last(contract.HandStarted).deck_commitment
        await before.act("fair-4", voided_id, "p1", "call")
    # A restarted process: the generator is in another state (in production, the system's generator).
    async with running(database, rng=random.Random(2)) as after:
        assert after.last(contract.HandVoided).hand_id == voided_id
        voided = (await after.get(f"/internal/v1/hands/{voided_id}/audit")).json()
        assert voided["commitment"] == voided_commitment
        (tmp_path / "voided.json").write_text(json.dumps(voided), encoding="utf-8")
        assert verify_deal(tmp_path / "voided.json") == 0

        next_id = await after.start_hand("fair-4", hand_no=2)
        assert after.last(contract.HandStarted).deck_commitment not in (None, voided_commitment)
        await after.act("fair-4", next_id, "p1", "fold")
        await after.act("fair-4", next_id, "p2", "fold")
        following = (await after.get(f"/internal/v1/hands/{next_id}/audit")).json()
        assert following["contributions"] == [voided["seed"]]
        assert following["seed"] != voided["seed"]
