"""Partner webhooks' pure rules (issue 16, item 2): the signature a partner verifies with docs/partners.md, the
backoff and its bounds, the URLs refused, and who receives which event."""

from __future__ import annotations

import json
import random
from datetime import UTC, datetime, timedelta
from types import SimpleNamespace

import httpx
import pytest
from gateway.adapters import webhook_store
from gateway.domain.webhook_events import (
    PartnerEventType,
    delivery_body,
    may_become,
    partner_event_id,
    partner_events,
    players_named,
)
from gateway.domain.webhook_retry import RetryPolicy
from gateway.domain.webhook_signing import headers, signature_header
from gateway.domain.webhook_urls import EndpointUrlRefused, UrlPolicy
from gateway.service.webhooks_intake import WebhookIntake
from gateway.service.webhooks_sender import WebhookSender
from gateway_test_support import coupon_settled
from platform_kit.bus import Envelope
from platform_kit.clock import FrozenClock
from platform_kit.events.gateway import PlayerRegistered
from platform_kit.events.rating import SanctionLifted
from platform_kit.events.table import HoleCardsDealt
from platform_kit.events.totalizator import DrawSettled
from platform_kit.events.tournament import PlayerRegistered as TournamentEntry
from platform_kit.events.tournament import PlayerUnregistered as TournamentExit
from platform_kit.events.tournament import RankedPlayer, TournamentFinished
from platform_kit.events.wallet import AccountRef, OperationPosted, Posting
from webhook_receiver import DOCS, docs_verifier

NOW = datetime(2026, 3, 1, 12, 0, tzinfo=UTC)
ALPHA, BETA = "a" * 32, "b" * 32
OWNERS = {"anna": ALPHA, "bruno": BETA, "carla": ALPHA}


# -- signatures ------------------------------------------------------------------------------------------------
def test_a_delivery_signed_by_the_gateway_verifies_with_the_documented_snippet() -> None:
    """Issue 16: HMAC-SHA256 over timestamp + "." + body; the docs' snippet is the partner's check."""
    verify = docs_verifier()
    body = b'{"id":"evt_1","type":"player.registered"}'
    sent = headers(
        event_id="evt_1", event_type="player.registered", timestamp=1_772_366_400, body=body, secrets=["whsec_x"]
    )
    assert sent["Webhook-Id"] == "evt_1" and sent["Webhook-Type"] == "player.registered"
    assert verify("whsec_x", sent, body, now=1_772_366_400)
    assert not verify("whsec_other", sent, body, now=1_772_366_400)
    assert not verify("whsec_x", sent, body + b" ", now=1_772_366_400), "a tampered body fails"
    assert not verify("whsec_x", sent, body, now=1_772_366_400 + 301), "an old capture is refused"


def test_during_a_rotation_both_secrets_sign() -> None:
    verify = docs_verifier()
    body = b"{}"
    header = signature_header(["whsec_new", "whsec_old"], 100, body)
    assert header.startswith("t=100,v1=") and header.count("v1=") == 2
    for secret in ("whsec_new", "whsec_old"):
        assert verify(secret, {"Webhook-Signature": header}, body, now=100)


# -- retries -----------------------------------------------------------------------------------------------------
POLICY = RetryPolicy(
    base=timedelta(seconds=30), cap=timedelta(hours=1), period=timedelta(hours=72), disable_after=timedelta(days=5)
)


def test_backoff_doubles_up_to_its_cap_with_jitter_of_at_most_half() -> None:
    """Issue 16: exponential backoff with jitter."""
    assert [POLICY.backoff(n, 0.0) for n in (1, 2, 3)] == [timedelta(seconds=s) for s in (15, 30, 60)]
    assert POLICY.backoff(1, 0.999) < timedelta(seconds=30)
    assert POLICY.backoff(40, 0.0) == timedelta(minutes=30)
    draws = random.Random(7)
    waits = {POLICY.backoff(3, draws.random()) for _ in range(50)}
    assert len(waits) > 40 and all(timedelta(seconds=60) <= w < timedelta(seconds=120) for w in waits)


def test_a_delivery_is_retried_for_a_bounded_period_then_given_up() -> None:
    first = NOW
    assert POLICY.next_attempt(first_attempt_at=first, now=NOW, failed_attempts=1, draw=0.5) is not None
    late = NOW + timedelta(hours=71, minutes=59)
    assert POLICY.next_attempt(first_attempt_at=first, now=late, failed_attempts=90, draw=0.5) is None
    assert not POLICY.should_disable(NOW, NOW + timedelta(days=4))
    assert POLICY.should_disable(NOW, NOW + timedelta(days=5))


# -- URLs --------------------------------------------------------------------------------------------------------
DEPLOYED = UrlPolicy(allow_http=False, allow_private=False)


@pytest.mark.parametrize(
    ("url", "code"),
    [
        ("http://partner.example/hooks", "webhook_url_not_https"),
        ("ftp://partner.example/hooks", "webhook_url_not_https"),
        ("https://127.0.0.1/hooks", "webhook_url_private"),
        ("https://10.1.2.3/hooks", "webhook_url_private"),
        ("https://192.168.0.10:8443/hooks", "webhook_url_private"),
        ("https://169.254.169.254/latest/meta-data", "webhook_url_private"),
        ("https://[::1]/hooks", "webhook_url_private"),
        ("https://[::ffff:10.0.0.1]/hooks", "webhook_url_private"),
        ("https://localhost/hooks", "webhook_url_private"),
        ("https://metadata.google.internal/", "webhook_url_private"),
        ("https://user:pw@partner.example/hooks", "webhook_url_invalid"),
        ("https:///hooks", "webhook_url_invalid"),
    ],
)
def test_deployed_gateways_refuse_plain_http_and_private_addresses(url: str, code: str) -> None:
    """Issue 16: bad endpoint URLs are refused (scheme; no loopback/private addresses outside a test setting)."""
    with pytest.raises(EndpointUrlRefused) as refused:
        DEPLOYED.check(url)
    assert refused.value.code == code


def test_public_https_urls_are_accepted_and_the_test_setting_allows_a_local_receiver() -> None:
    assert DEPLOYED.check("https://partner.example/hooks?x=1") == "https://partner.example/hooks?x=1"
    assert DEPLOYED.check("https://93.184.216.34/hooks")
    assert UrlPolicy(allow_http=True, allow_private=True).check("http://127.0.0.1:9000/hooks")


async def test_a_name_resolving_to_a_private_address_is_not_called() -> None:
    """A public name pointed at an internal address after registration (SSRF, DNS rebinding)."""
    called: list[httpx.Request] = []

    async def to_private(host: str, port: int) -> list[str]:
        return ["10.0.0.7"]

    def answer(request: httpx.Request) -> httpx.Response:
        called.append(request)
        return httpx.Response(200)

    sender = WebhookSender(DEPLOYED, timeout=1, transport=httpx.MockTransport(answer), resolver=to_private)
    result = await sender.send("https://partner.example/hooks", {}, b"{}")
    await sender.aclose()
    assert (result.ok, result.status_code, called) == (False, None, [])
    assert result.error and "address refused" in result.error


# -- scoping -----------------------------------------------------------------------------------------------------
def _finished() -> TournamentFinished:
    ranking = [
        RankedPlayer(player_id=player, position=position, prize_cents=prize)
        for player, position, prize in (("bruno", 1, 700), ("anna", 2, 300), ("carla", 3, 0))
    ]
    return TournamentFinished(
        tournament_id="t1",
        kind="sit_and_go",
        currency="EUR",
        finished_at=NOW.isoformat(),
        entrants=3,
        prize_pool_cents=1000,
        prize_pool_from_entries_cents=1000,
        guarantee_overlay_cents=0,
        ranking=ranking,
    )


def test_a_tournament_result_goes_to_each_concessionaire_with_its_own_players_only() -> None:
    """Issue 16: a concessionaire never receives another's players' data."""
    event = _finished()
    assert players_named(event) == {"anna", "bruno", "carla"}
    found = {e.concessionaire_id: e for e in partner_events(event, OWNERS)}
    assert set(found) == {ALPHA, BETA}
    assert [r["player_id"] for r in found[ALPHA].data["results"]] == ["anna", "carla"]
    assert [(r["player_id"], r["prize_cents"]) for r in found[BETA].data["results"]] == [("bruno", 700)]
    assert "bruno" not in json.dumps(found[ALPHA].data)


def _payout() -> OperationPosted:
    escrow = AccountRef(kind="tournament_escrow", owner="t1")
    legs = [
        Posting(debit=escrow, credit=AccountRef(kind="player", owner="anna"), amount=300, purpose="prize"),
        Posting(debit=escrow, credit=AccountRef(kind="player", owner="bruno"), amount=700, purpose="prize"),
    ]
    return OperationPosted(
        operation_id=9, kind="prize_payout", currency="EUR", tournament_id="t1", postings=legs, posted_at=NOW
    )


@pytest.mark.parametrize("kind", ["prize_payout", "refund", "draw_payout", "deposit"])
def test_a_money_move_becomes_only_types_the_intake_is_told_it_may(kind: str) -> None:
    """Issue 14: the intake drops an event when no endpoint chose any type `may_become` names; a rule producing
    a type left out of it would lose deliveries."""
    operation = _payout().model_copy(update={"kind": kind})
    produced = {event.type for event in partner_events(operation, OWNERS)}
    assert PartnerEventType.LEDGER_OPERATION in produced
    assert produced <= may_become(OperationPosted.TYPE)
    for event in (_finished(), coupon_settled("bruno")):
        assert {e.type for e in partner_events(event, OWNERS)} == may_become(event.TYPE)
    assert may_become("table.hand.completed") == frozenset()


def test_a_payout_across_concessionaires_is_cut_to_each_ones_legs() -> None:
    found = {(e.concessionaire_id, e.type): e.data for e in partner_events(_payout(), OWNERS)}
    assert set(found) == {
        (ALPHA, PartnerEventType.LEDGER_OPERATION),
        (ALPHA, PartnerEventType.PAYOUT_POSTED),
        (BETA, PartnerEventType.LEDGER_OPERATION),
        (BETA, PartnerEventType.PAYOUT_POSTED),
    }
    assert found[(ALPHA, PartnerEventType.PAYOUT_POSTED)]["movements"] == [
        {"player_id": "anna", "account_kind": "player", "amount": 300}
    ]
    legs = found[(BETA, PartnerEventType.LEDGER_OPERATION)]["postings"]
    assert [leg["credit"]["owner"] for leg in legs] == ["bruno"]
    assert "anna" not in json.dumps(found[(BETA, PartnerEventType.PAYOUT_POSTED)])


def test_another_concessionaires_account_on_the_other_side_of_a_leg_is_hidden() -> None:
    legs = [
        Posting(
            debit=AccountRef(kind="player", owner="bruno"),
            credit=AccountRef(kind="cash", owner=ALPHA),
            amount=5,
            purpose="odd",
        )
    ]
    event = OperationPosted(operation_id=1, kind="deposit", currency="EUR", postings=legs, posted_at=NOW)
    ledger = {e.concessionaire_id: e.data for e in partner_events(event, OWNERS)}
    assert ledger[ALPHA]["postings"][0]["debit"] == {"kind": "player", "owner": None}
    assert ledger[BETA]["postings"][0]["credit"] == {"kind": "cash", "owner": None}


def test_registrations_go_to_the_players_concessionaire_and_a_draws_outcome_to_every_subscriber() -> None:
    registered = PlayerRegistered(
        player_id="anna", nickname="Anna", concessionaire_id=ALPHA, date_of_birth="1990-01-01", registered_at=NOW
    )
    [event] = partner_events(registered, {})
    assert (event.concessionaire_id, event.type) == (ALPHA, PartnerEventType.PLAYER_REGISTERED)
    assert "date_of_birth" not in event.data
    settled = DrawSettled(
        draw_id="d1",
        refunded=False,
        winning_coupons=3,
        paid_usd="10",
        organizer_topup_usd="0",
        rounding_remainder_usd="0",
        next_jackpot_usd="0",
    )
    [public] = partner_events(settled, {})
    assert public.concessionaire_id is None and public.type == PartnerEventType.DRAW_SETTLED


def test_a_coupons_outcome_goes_to_its_players_concessionaire_only() -> None:
    """Issue 16: coupon settled/paid, strictly scoped (never to another concessionaire, never to everyone)."""
    outcome = coupon_settled("bruno")
    assert players_named(outcome) == {"bruno"}
    [event] = partner_events(outcome, OWNERS)
    assert (event.concessionaire_id, event.type) == (BETA, PartnerEventType.COUPON_SETTLED)
    assert event.data == outcome.model_dump()
    assert partner_events(outcome, {}) == [], "a player the gateway does not know goes nowhere"


def _hole_cards() -> HoleCardsDealt:
    return HoleCardsDealt(table_id="t", hand_id="h", player_id="anna", seat=1, cards=["As", "Kd"])


def test_a_private_event_never_becomes_a_partner_event() -> None:
    """Issue 16: public events only (never Event.PRIVATE)."""
    assert HoleCardsDealt.PRIVATE
    assert partner_events(_hole_cards(), OWNERS) == []


async def test_the_intake_ignores_a_private_envelope_without_touching_the_database() -> None:
    woken: list[bool] = []
    intake = WebhookIntake(FrozenClock(NOW), lambda: woken.append(True))
    envelope = Envelope.wrap(_hole_cards(), producer="table-engine")
    await intake.consume(None, envelope)  # type: ignore[arg-type]  # a database call would fail on None
    assert woken == []


async def test_the_intake_reads_a_players_concessionaire_once_and_an_unknown_player_each_time(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Issue 14: a closing rush's stakes each name their player; a player never changes concessionaire, so the
    intake asks the database once per player — but again for one it did not know (who may sign up meanwhile)."""
    asked: list[set[str]] = []

    async def concessionaires(_: object, player_ids: set[str]) -> dict[str, str]:
        asked.append(set(player_ids))
        return {p: OWNERS[p] for p in player_ids if p in OWNERS}

    async def no_endpoints(*_: object) -> list[object]:
        return []

    async def coupons_chosen(_: object) -> frozenset[str]:
        return frozenset({"coupon.settled"})  # by some endpoint, none of these concessionaires'

    monkeypatch.setattr(webhook_store, "player_concessionaires", concessionaires)
    monkeypatch.setattr(webhook_store, "subscribed", no_endpoints)
    monkeypatch.setattr(webhook_store, "subscribed_types", coupons_chosen)
    intake = WebhookIntake(FrozenClock(NOW), lambda: None)
    for player in ("bruno", "bruno", "nobody", "nobody", "bruno"):
        session = SimpleNamespace(info={})  # one transaction per message: nothing carried over in the session
        await intake.consume(session, Envelope.wrap(coupon_settled(player), producer="totalizator"))  # type: ignore[arg-type]
    assert asked == [{"bruno"}, {"nobody"}, {"nobody"}]


def test_event_ids_are_stable_per_message_type_and_concessionaire() -> None:
    one = partner_event_id("m1", "player.registered", ALPHA)
    assert one == partner_event_id("m1", "player.registered", ALPHA)
    assert (
        len(
            {one, partner_event_id("m1", "player.registered", BETA), partner_event_id("m2", "player.registered", ALPHA)}
        )
        == 3
    )
    body = delivery_body(event_id=one, event_type="x", occurred_at=NOW, concessionaire_id=ALPHA, data={"a": 1})
    assert json.loads(body) == {
        "id": one,
        "type": "x",
        "occurred_at": NOW.isoformat(),
        "concessionaire_id": ALPHA,
        "data": {"a": 1},
    }


def test_tournament_registrations_and_sanctions_go_to_the_players_concessionaire_only() -> None:
    entered = TournamentEntry(tournament_id="t1", player_id="bruno", entry="buy_in", registered=7)
    [event] = partner_events(entered, OWNERS)
    assert (event.concessionaire_id, event.type) == (BETA, PartnerEventType.TOURNAMENT_REGISTERED)
    assert "registered" not in event.data
    left = TournamentExit(tournament_id="t1", player_id="anna", refunded_cents=500, registered=6)
    [event] = partner_events(left, OWNERS)
    assert (event.concessionaire_id, event.type) == (ALPHA, PartnerEventType.TOURNAMENT_UNREGISTERED)
    lifted = SanctionLifted(sanction_id="s1", player_id="carla", kind="temporary_ban", reason="expired")
    [event] = partner_events(lifted, OWNERS)
    assert (event.concessionaire_id, event.type) == (ALPHA, PartnerEventType.SANCTION_LIFTED)
    assert partner_events(lifted, {}) == [], "a player the gateway does not know goes nowhere"


def test_the_partners_guide_names_every_event_type() -> None:
    """docs/partners.md is the partner's reference: no type is left out of it."""
    guide = DOCS.read_text()
    assert [t for t in PartnerEventType if f"`{t}`" not in guide] == []
