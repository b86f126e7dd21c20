"""Players' contributions to the deck (P-1.3, docs/fair-deal.md): the table commits to the seed of its next hand
before it takes any contribution to it, deals that hand from the committed seed and every contribution received
before the deal, refuses a player who has no seat, puts a value that comes during a hand into the following one,
and keeps the committed seed and the values received across a restart."""

from __future__ import annotations

import hashlib
import json
import random
from dataclasses import replace
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from platform_kit.events import table as contract
from pydantic import ValidationError
from table_engine.cli import main
from table_engine.domain.cards import card_text
from table_engine.domain.fair_deal import SEED_BYTES, DeckSource, commitment, derive_deck
from table_engine.domain.machine import Refusal, TableMachine, new_table
from table_engine.service.host import PLAYER_COMMANDS
from table_harness import LEVEL, Harness, running
from test_privacy import play_hand_randomly

PUBLIC_VALUE = "deck-1"  # the table id: the public contribution to a table's first hand
NOW = datetime(2026, 1, 1, tzinfo=UTC)


async def contribute(service: Harness, table_id: str, player_id: str, value: str) -> None:
    await service.send(contract.ContributeToDeck(table_id=table_id, player_id=player_id, value=value))


def accepted_for(service: Harness, player_id: str) -> list[str]:
    """The commitments of the hands `player_id`'s accepted contributions went into, in order."""
    return [e.deck_commitment for e in service.events(contract.ContributionAccepted) if e.player_id == player_id]


async def test_p1_3_the_next_seed_is_committed_before_contributions_and_the_deck_derives_from_both(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    async with running(tmp_path / "c.db", rng=random.Random(5)) as service:
        await service.open_table(PUBLIC_VALUE)
        committed = service.last(contract.TableOpened).next_deck_commitment
        assert committed is not None  # published before anyone could contribute
        assert (await service.get(f"/v1/tables/{PUBLIC_VALUE}")).json()["next_deck_commitment"] == committed

        await contribute(service, PUBLIC_VALUE, "p1", "a" * 64)
        await contribute(service, PUBLIC_VALUE, "p2", "first")
        await contribute(service, PUBLIC_VALUE, "p2", "second")  # replaces p2's first value
        assert accepted_for(service, "p1") == [committed] and accepted_for(service, "p2") == [committed, committed]
        accepted = [(k, e.payload) for k, e in service.messages() if e.type == contract.ContributionAccepted.TYPE]
        assert all(key.startswith("private.") for key, _ in accepted)  # to the contributing player alone

        hand_id = await service.start_hand(PUBLIC_VALUE)
        started = service.last(contract.HandStarted)
        assert started.deck_commitment == committed
        following = started.next_deck_commitment
        assert following not in (None, committed)
        assert (await service.get(f"/v1/tables/{PUBLIC_VALUE}")).json()["next_deck_commitment"] == following
        await play_hand_randomly(service, PUBLIC_VALUE, hand_id, random.Random(3))
        audit = (await service.get(f"/internal/v1/hands/{hand_id}/audit")).json()

    assert sorted(audit["contributions"]) == sorted([PUBLIC_VALUE, "a" * 64, "second"])
    assert hashlib.sha256(bytes.fromhex(audit["seed"])).hexdigest() == committed
    derived = derive_deck(bytes.fromhex(audit["seed"]), audit["contributions"])
    assert audit["deck"] == [card_text(card) for card in derived]
    (tmp_path / "audit.json").write_text(json.dumps(audit), encoding="utf-8")
    assert main(["verify-deal", "--hand", str(tmp_path / "audit.json"), "--commitment", committed]) == 0
    tampered = {**audit, "contributions": [PUBLIC_VALUE, "a" * 64, "first"]}  # a player's value swapped
    (tmp_path / "tampered.json").write_text(json.dumps(tampered), encoding="utf-8")
    capsys.readouterr()
    assert main(["verify-deal", "--hand", str(tmp_path / "tampered.json")]) == 1
    assert "MISMATCH: " in capsys.readouterr().out


async def test_p1_3_a_contribution_during_a_hand_goes_into_the_following_one(tmp_path: Path) -> None:
    async with running(tmp_path / "c.db", rng=random.Random(6)) as service:
        await service.open_table(PUBLIC_VALUE)
        first = await service.start_hand(PUBLIC_VALUE)
        started = service.last(contract.HandStarted)
        await contribute(service, PUBLIC_VALUE, "p3", "late")  # after the deal of hand 1
        assert accepted_for(service, "p3") == [started.next_deck_commitment]
        await play_hand_randomly(service, PUBLIC_VALUE, first, random.Random(4))
        second = await service.start_hand(PUBLIC_VALUE, hand_no=2)
        assert service.last(contract.HandStarted).deck_commitment == started.next_deck_commitment
        await play_hand_randomly(service, PUBLIC_VALUE, second, random.Random(5))
        first_audit = (await service.get(f"/internal/v1/hands/{first}/audit")).json()
        second_audit = (await service.get(f"/internal/v1/hands/{second}/audit")).json()
        view = (await service.get(f"/v1/tables/{PUBLIC_VALUE}")).json()
        published = json.dumps([envelope.payload for _, envelope in service.messages()])
    # P-1.4: a seed drawn a hand ahead is never out before its hand has ended: only its hash was published.
    assert second_audit["seed"] not in published and second_audit["seed"] not in json.dumps(view)
    assert first_audit["contributions"] == [PUBLIC_VALUE]
    assert sorted(second_audit["contributions"]) == sorted([first_audit["seed"], "late"])


async def test_p1_3_only_a_seated_player_contributes_and_a_value_is_bounded(tmp_path: Path) -> None:
    async with running(tmp_path / "c.db", rng=random.Random(7)) as service:
        await service.open_table(PUBLIC_VALUE)
        await contribute(service, PUBLIC_VALUE, "stranger", "x")
        rejected = service.last(contract.ActionRejected)
        assert (rejected.player_id, rejected.code) == ("stranger", "not_seated")
        assert contract.ContributeToDeck in PLAYER_COMMANDS  # refusals reach that player alone
        hand_id = await service.start_hand(PUBLIC_VALUE)
        await play_hand_randomly(service, PUBLIC_VALUE, hand_id, random.Random(2))
        audit = (await service.get(f"/internal/v1/hands/{hand_id}/audit")).json()
    assert audit["contributions"] == [PUBLIC_VALUE]
    for bad in ("", "x" * 65, "has space", "é"):
        with pytest.raises(ValidationError):
            contract.ContributeToDeck(table_id=PUBLIC_VALUE, player_id="p1", value=bad)


async def test_p1_3_a_restart_keeps_the_committed_seed_and_the_values_received(tmp_path: Path) -> None:
    database = tmp_path / "restart.db"
    async with running(database, rng=random.Random(8)) as before:
        await before.open_table(PUBLIC_VALUE)
        committed = before.last(contract.TableOpened).next_deck_commitment
        await contribute(before, PUBLIC_VALUE, "p1", "kept")
    # Another process, its generator in another state: the next hand is still the one committed to.
    async with running(database, rng=random.Random(9)) as after:
        hand_id = await after.start_hand(PUBLIC_VALUE)
        started = after.last(contract.HandStarted)
        assert started.deck_commitment == committed
        await after.act(PUBLIC_VALUE, hand_id, "p1", "call")
    # P-10: a crash mid-hand voids it; the hand dealt again uses the seed committed at the void hand's deal.
    async with running(database, rng=random.Random(10)) as again:
        assert again.last(contract.HandVoided).hand_id == hand_id
        voided = (await again.get(f"/internal/v1/hands/{hand_id}/audit")).json()
        assert sorted(voided["contributions"]) == sorted([PUBLIC_VALUE, "kept"])
        redeal = await again.start_hand(PUBLIC_VALUE, hand_no=1)
        assert again.last(contract.HandStarted).deck_commitment == started.next_deck_commitment
        await play_hand_randomly(again, PUBLIC_VALUE, redeal, random.Random(1))
        redealt = (await again.get(f"/internal/v1/hands/{redeal}/audit")).json()
    assert redealt["seed"] != voided["seed"]
    assert redealt["contributions"] == [voided["seed"]]  # the value went into the void hand, not this one


class FreshSeeds:
    """The machine's `Dealer` without I/O: seeds counted up, decks derived as in production."""

    def __init__(self) -> None:
        self.drawn = 0

    def new_seed(self) -> bytes:
        self.drawn += 1
        return self.drawn.to_bytes(SEED_BYTES, "big")

    def deal(self, source: DeckSource) -> tuple[str, list[int]]:
        return f"h-{self.drawn}", source.deck()


def test_p1_3_a_table_opened_before_contributions_commits_at_its_next_deal() -> None:
    """A table saved by an older engine has no next seed: contributions wait (`no_deck_commitment`) until its
    next deal, which draws that hand's seed on the spot, as before, and commits to the following one."""
    seats = [contract.SeatedPlayer(seat=n, player_id=f"p{n}", stack=1000) for n in (1, 2)]
    command = contract.OpenTable(table_id="old", max_seats=6, betting_structure="no_limit", seats=seats)
    dealer = FreshSeeds()
    table = replace(new_table(command, shard=0, now=NOW, draw_button=min, draw_seed=dealer.new_seed), next_seed=None)
    with pytest.raises(Refusal) as refused:
        TableMachine(table, None, NOW).contribute("p1", "early")
    assert refused.value.code == "no_deck_commitment" and not table.next_contributions
    machine = TableMachine(table, None, NOW)
    machine.start_hand(contract.StartHand(table_id="old", hand_no=1, level=LEVEL), dealer, timedelta(0))
    [started] = [e for e in machine.effects.messages if isinstance(e, contract.HandStarted)]
    assert started.deck_commitment == commitment((2).to_bytes(SEED_BYTES, "big"))  # drawn at the deal
    assert started.next_deck_commitment == commitment((3).to_bytes(SEED_BYTES, "big"))
    TableMachine(table, machine.live, NOW).contribute("p1", "now-taken")
    assert table.next_contributions == {"p1": "now-taken"}
