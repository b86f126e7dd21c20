"""Request and response bodies. Stakes are integers of minor units (floats are refused); US-dollar amounts,
rates and minimum stakes are decimal strings ("1.0843", "0.10")."""

from __future__ import annotations

from datetime import date, datetime
from typing import Annotated, Any

from pydantic import AwareDatetime, BaseModel, ConfigDict, Field

from totalizator.adapters.draws import Decision, DrawRecord, usd_text
from totalizator.adapters.transfers import TransferRecord, TransferStatus
from totalizator.domain import MATCH_COUNT, CurrencyTerms, DrawStatus
from totalizator.domain.coupon import decode_picks
from totalizator.domain.currency import format_minor
from totalizator.files.decimals import exact_decimal
from totalizator.files.report import usd
from totalizator.service.queries import CouponView, DrawView
from totalizator.service.statistics import StatisticsView

DecimalText = Annotated[str, Field(pattern=r"^[0-9]{1,15}(\.[0-9]{1,12})?$", examples=["0.10"])]
CurrencyCode = Annotated[str, Field(pattern=r"^[A-Z]{3}$", examples=["EUR"])]
DrawId = Annotated[str, Field(pattern=r"^[A-Za-z0-9][A-Za-z0-9_-]{0,39}$", examples=["2030-23"])]
Reason = Annotated[str, Field(min_length=3, max_length=500, description="Why (T-1.5): kept with the decision.")]
Name = Annotated[str, Field(min_length=1, max_length=100)]
Goals = Annotated[int, Field(strict=True, ge=0, le=99)]


class _In(BaseModel):
    model_config = ConfigDict(extra="forbid")


# -- requests -------------------------------------------------------------------------------------------------
class MatchIn(_In):
    competition: Name | None = None
    home: Name
    away: Name
    kickoff: AwareDatetime = Field(description="Scheduled kick-off; at or after the bet-closing time.")
    options: list[Annotated[str, Field(max_length=20)]] | None = Field(
        None,
        min_length=4,
        max_length=60,
        description='Offered results (T-2.1): scores "h:a" plus "other home", "other draw", "other away". '
        "Default: every score up to 4:4 and the three catch-alls.",
    )


class CurrencyIn(_In):
    currency: CurrencyCode
    min_stake: DecimalText = Field(description="Minimum stake per bet, in the currency (T-2.2, T-2.4).")
    usd_rate: DecimalText = Field(description="US dollars per unit of the currency, fixed for the draw (T-2.3).")


class DrawIn(_In):
    draw_id: DrawId
    close_at: AwareDatetime
    matches: list[MatchIn] = Field(min_length=MATCH_COUNT, max_length=MATCH_COUNT)
    currencies: list[CurrencyIn] = Field(min_length=1, max_length=30)
    jackpot_topup_usd: DecimalText = Field("0", description="The organizer's addition to the jackpot (T-4.4).")
    topup_reason: Reason | None = None


class KickoffIn(_In):
    kickoff: AwareDatetime = Field(description="The actual kick-off; before bet closing the match is void (T-5.1).")
    reason: Reason | None = None


class ResultIn(_In):
    home: Goals = Field(description="Home goals at the end of regular time.")
    away: Goals
    reason: Reason | None = Field(None, description="Required to correct a result already entered (T-1.5).")


class ReasonIn(_In):
    reason: Reason


class CouponIn(_In):
    player_id: Annotated[str, Field(min_length=1, max_length=64)]
    birth_date: date = Field(description="The player's, as the gateway knows it: under 18 is refused (T-1.4).")
    currency: CurrencyCode
    amount: int = Field(strict=True, gt=0, le=10**15, description="Integer minor units of `currency`.")
    picks: list[list[Annotated[str, Field(max_length=20)]]] = Field(
        min_length=MATCH_COUNT,
        max_length=MATCH_COUNT,
        description='For each match in order, the results picked (T-2.4), e.g. ["1:0", "2:1"].',
    )


# -- responses ------------------------------------------------------------------------------------------------
class CurrencyOut(BaseModel):
    currency: str
    min_stake: str
    min_stake_minor: int
    usd_rate: str

    @classmethod
    def of(cls, terms: CurrencyTerms) -> CurrencyOut:
        return cls(
            currency=terms.currency,
            min_stake=format_minor(terms.min_stake, terms.exponent),
            min_stake_minor=terms.min_stake,
            usd_rate=exact_decimal(terms.usd_rate),
        )


class MatchOut(BaseModel):
    no: int
    competition: str | None
    home: str
    away: str
    kickoff: datetime = Field(description="Scheduled kick-off.")
    actual_kickoff: datetime | None
    options: list[str]
    void: bool = Field(description="By decision, or because it kicked off before bet closing (T-5.1).")
    declared_void: bool
    score: str | None
    result: str | None = Field(description="The offered result the score maps to.")


class FinalOut(BaseModel):
    """T-2.6: once bets are closed and counted."""

    closed_at: datetime
    coupons: int
    bets: int
    pool_usd: str


class DrawOut(BaseModel):
    draw_id: str
    status: str
    close_at: datetime
    jackpot_usd: str
    jackpot_carried_usd: str
    jackpot_topup_usd: str
    currencies: list[CurrencyOut]
    matches: list[MatchOut]
    void_matches: list[int]
    playable: bool = Field(description="False with three or more void matches: every bet is refunded (T-5.5).")
    announced_at: datetime | None
    final: FinalOut | None
    next_jackpot_usd: str | None = Field(description="Carried to the next draw, once settled or cancelled.")
    finished_at: datetime | None

    @classmethod
    def fields_of(cls, view: DrawView) -> dict[str, Any]:
        record, draw = view.record, view.draw
        void = [match.no for match in draw.void_matches]
        return {
            "draw_id": record.draw_id,
            "status": str(record.status),
            "close_at": record.close_at,
            "jackpot_usd": usd_text(record.jackpot_usd),
            "jackpot_carried_usd": usd_text(record.jackpot_carried_usd),
            "jackpot_topup_usd": usd_text(record.jackpot_topup_usd),
            "currencies": [CurrencyOut.of(terms) for terms in view.currencies],
            "matches": [
                MatchOut(
                    no=m.no,
                    competition=m.competition,
                    home=m.home,
                    away=m.away,
                    kickoff=m.kickoff,
                    actual_kickoff=m.actual_kickoff,
                    options=list(m.options),
                    void=m.no in void,
                    declared_void=m.declared_void,
                    score=None if m.score is None else f"{m.score[0]}:{m.score[1]}",
                    result=m.result,
                )
                for m in view.matches
            ],
            "void_matches": void,
            "playable": draw.is_playable,
            "announced_at": record.announced_at,
            "final": _final(record),
            "next_jackpot_usd": _next_jackpot(record),
            "finished_at": record.finished_at,
        }

    @classmethod
    def of(cls, view: DrawView) -> DrawOut:
        return cls(**cls.fields_of(view))


class TransferProgressOut(BaseModel):
    pending: int
    done: int
    refused: int


class DrawAdminOut(DrawOut):
    """The public view plus what operators follow: the cancellation, unconfirmed stakes, wallet transfers."""

    created_at: datetime
    closed_at: datetime | None
    cancel_reason: str | None
    pending_coupons: int
    transfers: TransferProgressOut

    @classmethod
    def of(cls, view: DrawView) -> DrawAdminOut:
        record = view.record
        return cls(
            **cls.fields_of(view),
            created_at=record.created_at,
            closed_at=record.closed_at,
            cancel_reason=record.cancel_reason,
            pending_coupons=view.pending_coupons,
            transfers=TransferProgressOut(
                pending=view.transfers[TransferStatus.PENDING],
                done=view.transfers[TransferStatus.DONE],
                refused=view.transfers[TransferStatus.REFUSED],
            ),
        )


class DrawSummaryOut(BaseModel):
    draw_id: str
    status: str
    close_at: datetime
    jackpot_usd: str
    final: FinalOut | None
    next_jackpot_usd: str | None

    @classmethod
    def of(cls, record: DrawRecord) -> DrawSummaryOut:
        return cls(
            draw_id=record.draw_id,
            status=str(record.status),
            close_at=record.close_at,
            jackpot_usd=usd_text(record.jackpot_usd),
            final=_final(record),
            next_jackpot_usd=_next_jackpot(record),
        )


class OptionStatisticsOut(BaseModel):
    option: str
    bets: int
    amount_usd: str = Field(description="Rounded half to even to the micro-dollar.")


class MatchStatisticsOut(BaseModel):
    no: int
    home: str
    away: str
    options: list[OptionStatisticsOut]


class StatisticsOut(BaseModel):
    """T-2.6: bets so far per match and result; `final` once bets are closed and every stake confirmed."""

    draw_id: str
    status: str
    final: bool
    as_of: datetime
    coupons: int
    bets: int
    pool_usd: str
    matches: list[MatchStatisticsOut]

    @classmethod
    def of(cls, view: StatisticsView) -> StatisticsOut:
        live = view.statistics
        return cls(
            draw_id=view.draw.draw_id,
            status=str(view.status),
            final=view.final,
            as_of=view.as_of,
            coupons=live.coupons,
            bets=live.bets,
            pool_usd=usd_text(live.pool_usd),
            matches=[
                MatchStatisticsOut(
                    no=match.no,
                    home=match.home,
                    away=match.away,
                    options=[
                        OptionStatisticsOut(option=row.option, bets=row.bets, amount_usd=usd(row.amount_usd))
                        for row in live.match(match.no)
                    ],
                )
                for match in view.draw.matches
            ],
        )


class CouponOut(BaseModel):
    coupon_id: str
    draw_id: str
    player_id: str
    status: str = Field(description="pending (stake not yet confirmed), accepted, or refused by the wallet.")
    currency: str
    amount: int = Field(description="Minor units.")
    amount_text: str
    bets: int
    picks: list[list[str]]
    accepted_at: datetime
    wallet_operation_id: int | None

    @classmethod
    def of(cls, view: CouponView) -> CouponOut:
        record, draw = view.record, view.draw
        terms = draw.terms(record.currency)
        return cls(
            coupon_id=record.coupon_id,
            draw_id=record.draw_id,
            player_id=record.player_id,
            status=str(record.status),
            currency=record.currency,
            amount=record.amount,
            amount_text=format_minor(record.amount, terms.exponent),
            bets=record.bets,
            picks=[list(labels) for labels in decode_picks(draw, record.picks)],
            accepted_at=record.accepted_at,
            wallet_operation_id=record.wallet_operation_id,
        )


class DecisionOut(BaseModel):
    match_no: int | None
    action: str
    detail: dict[str, Any]
    reason: str | None
    role: str
    staff_id: str | None
    decided_at: datetime

    @classmethod
    def of(cls, decision: Decision) -> DecisionOut:
        return cls(
            match_no=decision.match_no,
            action=decision.action,
            detail=decision.detail,
            reason=decision.reason,
            role=decision.role,
            staff_id=decision.staff_id,
            decided_at=decision.decided_at,
        )


class TransferOut(BaseModel):
    kind: str
    currency: str
    amount: int
    player_id: str | None
    coupon_id: str | None
    batch_no: int | None = Field(
        description="Payouts and refunds are made in batches, one wallet call each: the transfers of a batch "
        "share its number, idempotency key and wallet operation. None for a call of its own."
    )
    idempotency_key: str = Field(description="The Idempotency-Key of the wallet call that makes the transfer.")
    status: str
    operation_id: int | None
    error: str | None

    @classmethod
    def of(cls, transfer: TransferRecord) -> TransferOut:
        return cls(
            kind=transfer.kind,
            currency=transfer.currency,
            amount=transfer.amount,
            player_id=transfer.player_id,
            coupon_id=transfer.coupon_id,
            batch_no=transfer.batch_no,
            idempotency_key=transfer.wallet_key,
            status=str(transfer.status),
            operation_id=transfer.operation_id,
            error=transfer.error,
        )


class JackpotOut(BaseModel):
    jackpot_usd: str = Field(description="Carried over from earlier draws, waiting for the next announcement (T-4.1).")


def _final(record: DrawRecord) -> FinalOut | None:
    if not record.is_final:
        return None
    assert record.closed_at is not None and record.final_pool_usd is not None
    return FinalOut(
        closed_at=record.closed_at,
        coupons=record.final_coupons or 0,
        bets=record.final_bets or 0,
        pool_usd=usd_text(record.final_pool_usd),
    )


def _next_jackpot(record: DrawRecord) -> str | None:
    """Set at settlement; a cancelled draw carries its whole jackpot (T-5.5)."""
    if record.next_jackpot_usd is not None:
        return usd_text(record.next_jackpot_usd)
    if record.status is DrawStatus.CANCELLED and record.announced_at is not None:
        return usd_text(record.jackpot_usd)
    return None
