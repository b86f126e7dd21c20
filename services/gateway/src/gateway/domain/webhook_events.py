"""Which partner events a platform event becomes, and for which concessionaire: pure rules, no I/O.

A partner receives only what concerns its own players and accounts (issue 16): each rule below names the
concessionaire from the event itself (its `concessionaire_id`) or from the players it names, looked up by the
caller and handed in as `concessionaire_of` (player id -> concessionaire id). Data about another concessionaire's
players is filtered out of a multi-player event (a tournament's ranking, a payout's legs), never sent along.
`draw.settled` names no player and no account: it is the draw's public outcome, sent to every subscriber
(`concessionaire_id=None`); each coupon's outcome (`coupon.settled`) goes to its player's concessionaire only. Private events (Event.PRIVATE, a player's hole cards) never become partner events.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from datetime import datetime
from enum import StrEnum
from typing import Any

from platform_kit.events import Event
from platform_kit.events.gateway import PlayerRegistered
from platform_kit.events.rating import SanctionDecided, SanctionLifted
from platform_kit.events.totalizator import CouponSettled, DrawSettled
from platform_kit.events.tournament import PlayerRegistered as TournamentEntry
from platform_kit.events.tournament import PlayerUnregistered as TournamentExit
from platform_kit.events.tournament import TournamentFinished
from platform_kit.events.wallet import AccountRef, OperationPosted


class PartnerEventType(StrEnum):
    """What a partner may subscribe to (the `type` of a delivery)."""

    PLAYER_REGISTERED = "player.registered"
    TOURNAMENT_REGISTERED = "tournament.player_registered"
    TOURNAMENT_UNREGISTERED = "tournament.player_unregistered"
    TOURNAMENT_FINISHED = "tournament.finished"
    PAYOUT_POSTED = "payout.posted"
    REFUND_POSTED = "refund.posted"
    DRAW_SETTLED = "draw.settled"
    COUPON_SETTLED = "coupon.settled"
    COUPON_PAID = "coupon.paid"
    SANCTION_DECIDED = "sanction.decided"
    SANCTION_LIFTED = "sanction.lifted"
    LEDGER_OPERATION = "ledger.operation_posted"


PING = "webhook.ping"  # a test delivery asked for by the partner; not subscribable

#: What each type tells (shown in the API and docs/partners.md).
DESCRIPTIONS: dict[PartnerEventType, str] = {
    PartnerEventType.PLAYER_REGISTERED: "One of the concessionaire's players signed up or was registered.",
    PartnerEventType.TOURNAMENT_REGISTERED: "One of its players registered for a tournament.",
    PartnerEventType.TOURNAMENT_UNREGISTERED: "One of its players left a tournament before it started (refund, if any).",
    PartnerEventType.TOURNAMENT_FINISHED: "A tournament finished: positions and prizes of the concessionaire's players in it.",
    PartnerEventType.PAYOUT_POSTED: "Money paid to or out for its players: tournament prizes, bonus prizes, jackpot awards, "
    "withdrawals.",
    PartnerEventType.REFUND_POSTED: "Tournament and draw refunds to its players.",
    PartnerEventType.DRAW_SETTLED: "A totalizator draw was settled (its public outcome; no player data).",
    PartnerEventType.COUPON_SETTLED: "One of its players' coupons is settled, once its draw is over: won (paid), lost "
    "or refunded, with the amount paid; `data` is contracts/events/totalizator.coupon.settled.json.",
    PartnerEventType.COUPON_PAID: "Winnings of its players' coupons paid into their accounts.",
    PartnerEventType.SANCTION_DECIDED: "A sanction was decided against one of its players.",
    PartnerEventType.SANCTION_LIFTED: "A sanction on one of its players ended or was overturned.",
    PartnerEventType.LEDGER_OPERATION: "Any ledger operation touching its accounts or its players' accounts, its legs only.",
}

# Wallet operation kinds (wallet.domain.operations.OperationKind) behind the money events.
PAYOUT_KINDS = frozenset({"prize_payout", "bonus_prizes", "jackpot_award", "withdrawal"})
REFUND_KINDS = frozenset({"refund", "draw_refund"})
COUPON_KINDS = frozenset({"draw_payout"})
# Wallet account kinds owned by a player (their id is the owner) and by a concessionaire (its id is the owner).
PLAYER_ACCOUNT_KINDS = frozenset({"player", "bonus"})
CONCESSIONAIRE_ACCOUNT_KINDS = frozenset({"cash", "margin", "sponsorship", "jackpot_fund", "tax"})


@dataclass(frozen=True, slots=True)
class PartnerEvent:
    """One partner event: `concessionaire_id` None means every subscriber (a public fact naming nobody)."""

    concessionaire_id: str | None
    type: PartnerEventType
    data: dict[str, Any]


def players_named(event: Event) -> set[str]:
    """The players whose concessionaire the rules need (for the caller to look up)."""
    if isinstance(event, TournamentFinished):
        return {ranked.player_id for ranked in event.ranking}
    if isinstance(event, SanctionDecided | SanctionLifted | TournamentEntry | TournamentExit | CouponSettled):
        return {event.player_id}
    if isinstance(event, OperationPosted):
        refs = [ref for posting in event.postings for ref in (posting.debit, posting.credit)]
        return {ref.owner for ref in refs if ref.kind in PLAYER_ACCOUNT_KINDS} | (
            {event.player_id} if event.player_id else set()
        )
    return set()


def partner_events(event: Event, concessionaire_of: Mapping[str, str]) -> list[PartnerEvent]:
    """The partner events `event` becomes, at most one per concessionaire and type."""
    if event.PRIVATE:
        return []
    rule = _RULES.get(type(event))
    return rule[0](event, concessionaire_of) if rule else []


def _registered(event: Event, _: Mapping[str, str]) -> list[PartnerEvent]:
    assert isinstance(event, PlayerRegistered)
    data = {"player_id": event.player_id, "nickname": event.nickname, "registered_at": event.registered_at}
    return [PartnerEvent(event.concessionaire_id, PartnerEventType.PLAYER_REGISTERED, _json(data))]


def _finished(event: Event, concessionaire_of: Mapping[str, str]) -> list[PartnerEvent]:
    assert isinstance(event, TournamentFinished)
    results: dict[str, list[dict[str, Any]]] = {}
    for ranked in event.ranking:
        concessionaire = concessionaire_of.get(ranked.player_id)
        if concessionaire is not None:
            results.setdefault(concessionaire, []).append(ranked.model_dump())
    common = {
        "tournament_id": event.tournament_id,
        "kind": event.kind,
        "currency": event.currency,
        "finished_at": event.finished_at,
        "entrants": event.entrants,
    }
    return [
        PartnerEvent(concessionaire, PartnerEventType.TOURNAMENT_FINISHED, _json({**common, "results": ranking}))
        for concessionaire, ranking in results.items()
    ]


def _sanction(event: Event, concessionaire_of: Mapping[str, str]) -> list[PartnerEvent]:
    assert isinstance(event, SanctionDecided | SanctionLifted)
    concessionaire = concessionaire_of.get(event.player_id)
    if concessionaire is None:
        return []
    if isinstance(event, SanctionDecided):
        fields = ("sanction_id", "player_id", "kind", "tournament_id", "ban_scope", "starts_at", "ends_at", "reason")
        return [
            PartnerEvent(
                concessionaire, PartnerEventType.SANCTION_DECIDED, _json(event.model_dump(include=set(fields)))
            )
        ]
    return [PartnerEvent(concessionaire, PartnerEventType.SANCTION_LIFTED, _json(event.model_dump()))]


def _tournament_entry(event: Event, concessionaire_of: Mapping[str, str]) -> list[PartnerEvent]:
    assert isinstance(event, TournamentEntry | TournamentExit)
    concessionaire = concessionaire_of.get(event.player_id)
    if concessionaire is None:
        return []
    data = event.model_dump(exclude={"registered"})  # the head count is the tournament's, not the partner's
    entered = isinstance(event, TournamentEntry)
    kind = PartnerEventType.TOURNAMENT_REGISTERED if entered else PartnerEventType.TOURNAMENT_UNREGISTERED
    return [PartnerEvent(concessionaire, kind, _json(data))]


def _draw_settled(event: Event, _: Mapping[str, str]) -> list[PartnerEvent]:
    assert isinstance(event, DrawSettled)
    return [PartnerEvent(None, PartnerEventType.DRAW_SETTLED, _json(event.model_dump()))]


def _coupon_settled(event: Event, concessionaire_of: Mapping[str, str]) -> list[PartnerEvent]:
    assert isinstance(event, CouponSettled)
    concessionaire = concessionaire_of.get(event.player_id)
    if concessionaire is None:
        return []
    return [PartnerEvent(concessionaire, PartnerEventType.COUPON_SETTLED, _json(event.model_dump()))]


def _operation(event: Event, concessionaire_of: Mapping[str, str]) -> list[PartnerEvent]:
    assert isinstance(event, OperationPosted)
    owner_of = _account_owner(concessionaire_of)
    involved = {owner_of(ref) for posting in event.postings for ref in (posting.debit, posting.credit)}
    found: list[PartnerEvent] = []
    money_type = _money_type(event.kind)
    for concessionaire in sorted(c for c in involved if c is not None):
        found.append(
            PartnerEvent(
                concessionaire, PartnerEventType.LEDGER_OPERATION, _ledger_view(event, concessionaire, owner_of)
            )
        )
        movements = _player_movements(event, concessionaire, owner_of)
        if money_type and movements:
            found.append(PartnerEvent(concessionaire, money_type, _money_view(event, movements)))
    return found


def _money_type(kind: str) -> PartnerEventType | None:
    if kind in PAYOUT_KINDS:
        return PartnerEventType.PAYOUT_POSTED
    if kind in REFUND_KINDS:
        return PartnerEventType.REFUND_POSTED
    return PartnerEventType.COUPON_PAID if kind in COUPON_KINDS else None


OwnerOf = Callable[[AccountRef], str | None]


def _account_owner(concessionaire_of: Mapping[str, str]) -> OwnerOf:
    """The concessionaire an account belongs to, None for the network's, a tournament's or a draw's."""

    def owner(ref: AccountRef) -> str | None:
        if ref.kind in PLAYER_ACCOUNT_KINDS:
            return concessionaire_of.get(ref.owner)
        return ref.owner if ref.kind in CONCESSIONAIRE_ACCOUNT_KINDS else None

    return owner


def _ledger_view(event: OperationPosted, concessionaire: str, owner_of: OwnerOf) -> dict[str, Any]:
    """The operation's legs touching the concessionaire; the other side's owner is hidden when it is another
    concessionaire's (or another's player's) account."""

    def side(ref: AccountRef) -> dict[str, Any]:
        other = owner_of(ref)
        return {"kind": ref.kind, "owner": ref.owner if other in (None, concessionaire) else None}

    legs = [
        {"debit": side(p.debit), "credit": side(p.credit), "amount": p.amount, "purpose": p.purpose}
        for p in event.postings
        if concessionaire in (owner_of(p.debit), owner_of(p.credit))
    ]
    ours = event.concessionaire_id == concessionaire or (
        event.player_id is not None and owner_of(AccountRef(kind="player", owner=event.player_id)) == concessionaire
    )
    return _json(
        {
            **_operation_header(event),
            "player_id": event.player_id if ours else None,
            "reference": event.reference if ours else None,
            "reverses_operation_id": event.reverses_operation_id,
            "postings": legs,
        }
    )


def _player_movements(event: OperationPosted, concessionaire: str, owner_of: OwnerOf) -> list[dict[str, Any]]:
    """Each leg on one of the concessionaire's players' accounts: + credited, - debited."""
    movements = []
    for posting in event.postings:
        for ref, sign in ((posting.credit, 1), (posting.debit, -1)):
            if ref.kind in PLAYER_ACCOUNT_KINDS and owner_of(ref) == concessionaire:
                movements.append({"player_id": ref.owner, "account_kind": ref.kind, "amount": sign * posting.amount})
    return movements


def _money_view(event: OperationPosted, movements: list[dict[str, Any]]) -> dict[str, Any]:
    return _json({**_operation_header(event), "movements": movements})


def _operation_header(event: OperationPosted) -> dict[str, Any]:
    return {
        "operation_id": event.operation_id,
        "kind": event.kind,
        "currency": event.currency,
        "tournament_id": event.tournament_id,
        "draw_id": event.draw_id,
        "posted_at": event.posted_at,
    }


def _json(data: dict[str, Any]) -> dict[str, Any]:
    """Plain JSON values (instants as ISO 8601 strings)."""
    return {name: value.isoformat() if hasattr(value, "isoformat") else value for name, value in data.items()}


Rule = Callable[[Event, Mapping[str, str]], list[PartnerEvent]]

#: Each platform event the gateway listens to: its rule, and every partner type the rule may produce (what an
#: intake checks against the endpoints' subscriptions before it reads or builds anything, `may_become`).
_RULES: dict[type[Event], tuple[Rule, frozenset[PartnerEventType]]] = {
    PlayerRegistered: (_registered, frozenset({PartnerEventType.PLAYER_REGISTERED})),
    TournamentFinished: (_finished, frozenset({PartnerEventType.TOURNAMENT_FINISHED})),
    SanctionDecided: (_sanction, frozenset({PartnerEventType.SANCTION_DECIDED})),
    SanctionLifted: (_sanction, frozenset({PartnerEventType.SANCTION_LIFTED})),
    TournamentEntry: (_tournament_entry, frozenset({PartnerEventType.TOURNAMENT_REGISTERED})),
    TournamentExit: (_tournament_entry, frozenset({PartnerEventType.TOURNAMENT_UNREGISTERED})),
    DrawSettled: (_draw_settled, frozenset({PartnerEventType.DRAW_SETTLED})),
    CouponSettled: (_coupon_settled, frozenset({PartnerEventType.COUPON_SETTLED})),
    OperationPosted: (
        _operation,
        frozenset(
            {
                PartnerEventType.LEDGER_OPERATION,
                PartnerEventType.PAYOUT_POSTED,
                PartnerEventType.REFUND_POSTED,
                PartnerEventType.COUPON_PAID,
            }
        ),
    ),
}
#: The platform event types the gateway listens to for its partners.
SOURCE_TYPES = tuple(sorted(model.TYPE for model in _RULES))
_BECOMES = {model.TYPE: types for model, (_, types) in _RULES.items()}


def may_become(event_type: str) -> frozenset[PartnerEventType]:
    """The partner types a platform event of `event_type` may become (none for one the gateway does not listen to):
    when no endpoint subscribes to any of them, the event concerns no partner, whatever it says."""
    return _BECOMES.get(event_type, frozenset())


def partner_event_id(message_id: str, event_type: str, concessionaire_id: str) -> str:
    """Stable for one platform message, type and concessionaire: what the partner deduplicates on, the same in
    every retry and replay, and in every endpoint of the concessionaire."""
    digest = hashlib.sha256(f"{message_id}\n{event_type}\n{concessionaire_id}".encode()).hexdigest()
    return f"evt_{digest[:32]}"


def delivery_body(
    *, event_id: str, event_type: str, occurred_at: datetime, concessionaire_id: str, data: dict[str, Any]
) -> str:
    """The JSON a delivery carries, written once: every attempt sends (and signs) the same bytes."""
    body = {
        "id": event_id,
        "type": event_type,
        "occurred_at": occurred_at.isoformat(),
        "concessionaire_id": concessionaire_id,
        "data": data,
    }
    return json.dumps(body, separators=(",", ":"), sort_keys=True)
