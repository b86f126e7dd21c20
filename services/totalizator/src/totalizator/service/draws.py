"""Draw administration by operators: prepare, announce, record kick-offs, void matches, enter results.

Every change holds the draw row FOR UPDATE (bet intake holds it FOR SHARE) and is recorded as a decision
with who took it and why (T-1.5).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from datetime import datetime
from typing import Literal

from platform_kit.errors import Conflict, NotFound, ProblemError
from platform_kit.events.totalizator import DrawAnnounced, MatchVoided
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncSession

from totalizator.adapters import draws, jackpot, transfers
from totalizator.adapters import statistics as stored_statistics
from totalizator.adapters.draws import Decision, Lock, bump, usd_text
from totalizator.domain import MATCH_COUNT, CurrencyTerms, Draw, DrawStatus, InvalidDraw, Match, standard_options
from totalizator.domain.currency import minor_unit_exponent
from totalizator.domain.options import option_for_score
from totalizator.files.decimals import parse_decimal, parse_minor
from totalizator.service.context import Context
from totalizator.service.problems import invalid_draw, wrong_status
from totalizator.service.staff import Staff
from totalizator.service.transfers import TransferRunner, organizer_transfer
from totalizator.service.wallet import TransferKind

KICKED_OFF_EARLY = "kicked off before bet closing (T-5.1)"
VoidCause = Literal["kicked_off_before_closing", "decision"]


@dataclass(frozen=True, slots=True)
class MatchSpec:
    home: str
    away: str
    kickoff: datetime  # scheduled
    competition: str | None = None
    options: tuple[str, ...] | None = None  # default: every score up to 4:4 and the three catch-alls


@dataclass(frozen=True, slots=True)
class CurrencySpec:
    currency: str
    min_stake: str  # decimal, in the currency ("0.10")
    usd_rate: str  # decimal US dollars per major unit, fixed for the draw (T-2.3)


@dataclass(frozen=True, slots=True)
class DraftSpec:
    draw_id: str
    close_at: datetime
    matches: tuple[MatchSpec, ...]
    currencies: tuple[CurrencySpec, ...]
    jackpot_topup_usd: str = "0"  # the organizer's addition to the jackpot (T-4.4), whole cents
    topup_reason: str | None = None


def build_draw(spec: DraftSpec) -> Draw:
    """The domain's Draw of a draft; InvalidDraw for anything the rules refuse (T-2.1–T-2.3, T-4.4, T-5.1)."""
    try:
        currencies = tuple(
            CurrencyTerms(
                c.currency,
                parse_minor(c.min_stake, minor_unit_exponent(c.currency)),
                parse_decimal(c.usd_rate),
            )
            for c in spec.currencies
        )
        topup = parse_decimal(spec.jackpot_topup_usd)
    except (KeyError, ValueError) as exc:
        raise InvalidDraw(str(exc.args[0]) if exc.args else str(exc)) from None
    if (topup * 100).denominator != 1:
        raise InvalidDraw("the jackpot top-up is paid through the wallet: whole cents of US dollars")
    if topup and not spec.topup_reason:
        raise InvalidDraw("a jackpot top-up is an organizer decision: give its reason (T-1.5, T-4.4)")
    if len(spec.matches) != MATCH_COUNT:
        raise InvalidDraw(f"a draw lists {MATCH_COUNT} matches, got {len(spec.matches)}")
    for no, match in enumerate(spec.matches, start=1):
        if match.kickoff < spec.close_at:
            raise InvalidDraw(f"match {no} is scheduled before bet closing: it would be void at once (T-5.1)")
    return Draw(
        draw_id=spec.draw_id,
        close_at=spec.close_at,
        matches=tuple(
            Match(no, m.home, m.away, m.kickoff, m.options or standard_options())
            for no, m in enumerate(spec.matches, start=1)
        ),
        currencies=currencies,
        jackpot_topup_usd=topup,
    )


class DrawAdmin:
    def __init__(self, context: Context, runner: TransferRunner) -> None:
        self.context = context
        self.runner = runner

    async def create(self, spec: DraftSpec, staff: Staff) -> None:
        try:
            draw = build_draw(spec)
        except InvalidDraw as error:
            raise invalid_draw(error) from None
        now = self.context.now()
        if draw.close_at <= now:
            raise ProblemError("invalid_draw", "The bet-closing time has already passed.", status=422)
        exists = Conflict("draw_exists", f"Draw {draw.draw_id} already exists.", draw_id=draw.draw_id)
        try:
            async with self.context.units.unit() as uow:
                if await draws.exists(uow.session, draw.draw_id):
                    raise exists
                await draws.insert_draft(uow.session, draw, [m.competition for m in spec.matches], created_at=now)
                detail = {"jackpot_topup_usd": usd_text(draw.jackpot_topup_usd)}
                await self._decide(uow.session, draw.draw_id, None, "create", detail, spec.topup_reason, staff)
        except IntegrityError:  # created concurrently under the same id
            raise exists from None

    async def announce(self, draw_id: str, staff: Staff) -> None:
        """Open the draft for bets (T-2.2) with the jackpot waiting in the pot (T-4.1) plus its top-up (T-4.4)."""
        now = self.context.now()
        async with self.context.units.unit() as uow:
            record = await draws.get(uow.session, draw_id, lock=Lock.UPDATE)
            if record.status is DrawStatus.OPEN:
                return
            if record.status is not DrawStatus.DRAFT:
                raise wrong_status(draw_id, record.status, "be announced")
            if now >= record.close_at:
                raise Conflict("closing_time_passed", f"Draw {draw_id} would close before it opens.")
            carried = await jackpot.take(uow.session, at=now)
            await draws.update_draw(
                uow.session,
                draw_id,
                status=str(DrawStatus.OPEN),
                jackpot_carried_usd=usd_text(carried),
                announced_at=now,
                **bump(),
            )
            draw = await draws.load(uow.session, await draws.get(uow.session, draw_id))
            await stored_statistics.create(uow.session, draw, at=now)
            await uow.publish(
                DrawAnnounced(
                    draw_id=draw_id,
                    close_at=draw.close_at,
                    jackpot_usd=usd_text(draw.jackpot_usd),
                    currencies=[terms.currency for terms in draw.currencies],
                ),
            )
            detail = {"jackpot_carried_usd": usd_text(carried), "jackpot_usd": usd_text(draw.jackpot_usd)}
            await self._decide(uow.session, draw_id, None, "announce", detail, None, staff)
            topup_cents = int(draw.jackpot_topup_usd * 100)
            if topup_cents:
                # T-4.4: the organizer's money goes to the network's jackpot account, through the draw's USD pool
                # (the wallet moves organizer money only between a draw's pool and the network's accounts).
                await transfers.plan(
                    uow.session,
                    draw_id,
                    [
                        organizer_transfer(draw_id, kind, currency="USD", amount=topup_cents, purpose="jackpot_top_up")
                        for kind in (TransferKind.ORGANIZER_TOP_UP, TransferKind.JACKPOT_CARRY)
                    ],
                    at=now,
                )
        if topup_cents:
            await self.runner.run(draw_id)

    async def record_kickoff(self, draw_id: str, no: int, kickoff: datetime, reason: str | None, staff: Staff) -> None:
        """The actual kick-off of a match; before bet closing it makes the match void (T-5.1)."""
        async with self.context.units.unit() as uow:
            draw = await self._for_match_change(uow.session, draw_id, no, "record a kick-off")
            was_void = draw.match(no).is_void(draw.close_at)
            await draws.update_match(uow.session, draw_id, no, actual_kickoff=kickoff)
            changed = draw.with_kickoff(no, kickoff)
            now_void = changed.match(no).is_void(changed.close_at)
            detail = {"kickoff": kickoff.isoformat(), "void": now_void}
            await self._decide(uow.session, draw_id, no, "kickoff", detail, reason, staff)
            if now_void and not was_void:
                await self._voided(uow.session, changed, no, "kicked_off_before_closing", reason or KICKED_OFF_EARLY)

    async def void_match(self, draw_id: str, no: int, reason: str, staff: Staff) -> None:
        """Void a match under the bookmaker's rules (T-5.1), with its reason (T-1.5)."""
        async with self.context.units.unit() as uow:
            draw = await self._for_match_change(uow.session, draw_id, no, "void a match")
            match = draw.match(no)
            if match.declared_void:
                return
            await draws.update_match(uow.session, draw_id, no, declared_void=True)
            await self._decide(uow.session, draw_id, no, "void", {}, reason, staff)
            if not match.is_void(draw.close_at):
                await self._voided(uow.session, draw.with_void(no), no, "decision", reason)

    async def enter_result(self, draw_id: str, no: int, home: int, away: int, reason: str | None, staff: Staff) -> None:
        """The regular-time score of a valid match; a correction of an entered score needs a reason (T-1.5)."""
        async with self.context.units.unit() as uow:
            record = await draws.get(uow.session, draw_id, lock=Lock.UPDATE)
            if not record.status.may_enter_results:
                raise wrong_status(draw_id, record.status, "take results")
            stored = {m.no: m for m in await draws.matches(uow.session, draw_id)}
            if no not in stored:
                raise _no_match(draw_id, no)
            draw = await draws.load(uow.session, record)
            match = draw.match(no)
            if match.is_void(draw.close_at):
                raise Conflict("match_void", f"Match {no} is void: it has no result that counts (T-5.1).")
            previous = stored[no].score
            if previous == (home, away):
                return
            if previous is not None and not reason:
                raise ProblemError(
                    "reason_required",
                    "Correcting a result is an operator decision: give its reason (T-1.5).",
                    status=422,
                )
            option = option_for_score(match.options, home, away)
            await draws.update_match(uow.session, draw_id, no, score_home=home, score_away=away, result=option)
            action = "result" if previous is None else "result_correction"
            detail = {
                "score": f"{home}:{away}",
                "result": option,
                "previous": None if previous is None else f"{previous[0]}:{previous[1]}",
            }
            await self._decide(uow.session, draw_id, no, action, detail, reason, staff)

    async def _for_match_change(self, session: AsyncSession, draw_id: str, no: int, action: str) -> Draw:
        """The draw, locked for a change to match `no` (kick-off, void)."""
        record = await draws.get(session, draw_id, lock=Lock.UPDATE)
        if not record.status.may_change_matches:
            raise wrong_status(draw_id, record.status, action)
        if not 1 <= no <= MATCH_COUNT:
            raise _no_match(draw_id, no)
        return await draws.load(session, record)

    async def _voided(self, session: AsyncSession, draw: Draw, no: int, cause: VoidCause, reason: str) -> None:
        await self.context.outbox.add(
            session,
            MatchVoided(
                draw_id=draw.draw_id,
                match_no=no,
                cause=cause,
                reason=reason,
                void_matches=len(draw.void_matches),
                playable=draw.is_playable,
            ),
        )

    async def _decide(
        self,
        session: AsyncSession,
        draw_id: str,
        match_no: int | None,
        action: str,
        detail: Mapping[str, object],
        reason: str | None,
        staff: Staff,
    ) -> None:
        decision = Decision(
            draw_id, match_no, action, dict(detail), reason, str(staff.role), staff.staff_id, self.context.now()
        )
        await draws.record_decision(session, decision)


def _no_match(draw_id: str, no: int) -> NotFound:
    return NotFound("match_not_found", f"Draw {draw_id} has no match {no}.", match_no=no)
