"""Jackpot programmes' funds and players' win streaks (P-8.6).

The wallet keeps one jackpot fund account per concessionaire and currency; the director splits it by programme,
so that each programme pays out what its own contributions collected.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from sqlalchemy import select, update
from sqlalchemy.ext.asyncio import AsyncSession

from tournament_director.adapters.orm import jackpot_funds, jackpot_streaks


async def fund_balance(session: AsyncSession, programme_id: str, concessionaire_id: str, currency: str) -> int:
    query = select(jackpot_funds.c.balance_cents).where(
        jackpot_funds.c.programme_id == programme_id,
        jackpot_funds.c.concessionaire_id == concessionaire_id,
        jackpot_funds.c.currency == currency,
    )
    return int(await session.scalar(query.with_for_update()) or 0)


async def add_to_fund(
    session: AsyncSession, programme_id: str, concessionaire_id: str, currency: str, amount: int
) -> None:
    """Add `amount` (negative: an award) to the programme's share of the concessionaire's fund."""
    where = (
        jackpot_funds.c.programme_id == programme_id,
        jackpot_funds.c.concessionaire_id == concessionaire_id,
        jackpot_funds.c.currency == currency,
    )
    changed = await session.execute(
        update(jackpot_funds).where(*where).values(balance_cents=jackpot_funds.c.balance_cents + amount)
    )
    if changed.rowcount == 0:  # type: ignore[attr-defined]
        await session.execute(
            jackpot_funds.insert().values(
                programme_id=programme_id, concessionaire_id=concessionaire_id, currency=currency, balance_cents=amount
            )
        )


async def streaks(session: AsyncSession, programme_id: str, players: Iterable[str]) -> dict[str, int]:
    query = select(jackpot_streaks.c.player_id, jackpot_streaks.c.streak).where(
        jackpot_streaks.c.programme_id == programme_id, jackpot_streaks.c.player_id.in_(list(players))
    )
    return {player: streak for player, streak in (await session.execute(query)).all()}


async def put_streaks(session: AsyncSession, programme_id: str, values: Mapping[str, int]) -> None:
    for player, streak in values.items():
        where = (jackpot_streaks.c.programme_id == programme_id, jackpot_streaks.c.player_id == player)
        changed = await session.execute(update(jackpot_streaks).where(*where).values(streak=streak))
        if changed.rowcount == 0:  # type: ignore[attr-defined]
            await session.execute(
                jackpot_streaks.insert().values(programme_id=programme_id, player_id=player, streak=streak)
            )
