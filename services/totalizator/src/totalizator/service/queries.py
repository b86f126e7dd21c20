"""Read-only views of draws, coupons, decisions, wallet transfers and the jackpot pot."""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from platform_kit.errors import NotFound
from sqlalchemy.ext.asyncio import AsyncSession

from totalizator.adapters import coupons, draws, jackpot, transfers
from totalizator.adapters.coupons import CouponRecord
from totalizator.adapters.draws import Decision, DrawRecord, MatchRecord
from totalizator.adapters.transfers import TransferRecord, TransferStatus
from totalizator.domain import CurrencyTerms, Draw, DrawStatus
from totalizator.service.context import Context


async def public_draw(session: AsyncSession, draw_id: str) -> DrawRecord:
    """A draw anyone may see: announced or later (a draft does not exist for the public)."""
    record = await draws.get(session, draw_id)
    if not record.status.is_public:
        raise NotFound("draw_not_found", f"There is no draw {draw_id!r}.", draw_id=draw_id)
    return record


@dataclass(frozen=True, slots=True)
class DrawView:
    record: DrawRecord
    draw: Draw
    matches: list[MatchRecord]
    currencies: list[CurrencyTerms]
    transfers: dict[TransferStatus, int]
    pending_coupons: int


@dataclass(frozen=True, slots=True)
class CouponView:
    record: CouponRecord
    draw: Draw


class Queries:
    def __init__(self, context: Context) -> None:
        self.context = context

    async def draw(self, draw_id: str, *, staff: bool = False) -> DrawView:
        async with self.context.units.reading() as session:
            record = await (draws.get(session, draw_id) if staff else public_draw(session, draw_id))
            return DrawView(
                record=record,
                draw=await self.context.draws.draw(session, record),
                matches=await draws.matches(session, draw_id),
                currencies=await draws.currencies(session, draw_id),
                transfers=await transfers.progress(session, draw_id),
                pending_coupons=await coupons.count_pending(session, draw_id),
            )

    async def draws(self, statuses: list[DrawStatus], *, limit: int = 100) -> list[DrawRecord]:
        async with self.context.units.reading() as session:
            return await draws.listed(session, statuses, limit=limit)

    async def decisions(self, draw_id: str) -> list[Decision]:
        async with self.context.units.reading() as session:
            await draws.get(session, draw_id)
            return await draws.decisions_of(session, draw_id)

    async def transfers(self, draw_id: str) -> list[TransferRecord]:
        async with self.context.units.reading() as session:
            await draws.get(session, draw_id)
            return await transfers.of_draw(session, draw_id)

    async def coupon(self, coupon_id: str) -> CouponView:
        async with self.context.units.reading() as session:
            record = await coupons.by_id(session, coupon_id)
            return CouponView(record, await self._draw(session, record.draw_id))

    async def player_coupons(self, player_id: str, *, draw_id: str | None = None, limit: int = 100) -> list[CouponView]:
        async with self.context.units.reading() as session:
            records = await coupons.of_player(session, player_id, draw_id=draw_id, limit=limit)
            return [CouponView(record, await self._draw(session, record.draw_id)) for record in records]

    async def jackpot_pot(self) -> Fraction:
        async with self.context.units.reading() as session:
            return await jackpot.amount(session)

    async def _draw(self, session: AsyncSession, draw_id: str) -> Draw:
        return await self.context.draws.draw(session, await draws.get(session, draw_id))
