"""The jackpot pot (T-4.1): what settled and cancelled draws carried over, waiting for the next announced draw.

One row (created by migration 0002), always changed under a row lock, kept as an exact decimal string.
"""

from __future__ import annotations

from datetime import datetime
from fractions import Fraction

from sqlalchemy import select, update
from sqlalchemy.ext.asyncio import AsyncSession

from totalizator.adapters.orm import jackpot_pot
from totalizator.files.decimals import exact_decimal, parse_decimal

POT_ID = 1


async def amount(session: AsyncSession, *, for_update: bool = False) -> Fraction:
    query = select(jackpot_pot.c.amount_usd).where(jackpot_pot.c.id == POT_ID)
    if for_update:
        query = query.with_for_update()
    text = await session.scalar(query)
    if text is None:
        raise RuntimeError("the jackpot pot row is missing: run the migrations")
    return parse_decimal(text)


async def take(session: AsyncSession, *, at: datetime) -> Fraction:
    """Empty the pot into a draw being announced; returns what it held."""
    held = await amount(session, for_update=True)
    await _set(session, Fraction(0), at)
    return held


async def add(session: AsyncSession, carried: Fraction, *, at: datetime) -> Fraction:
    """Carry an amount into the pot (a settled draw's next jackpot, a cancelled draw's whole jackpot)."""
    held = await amount(session, for_update=True) + carried
    await _set(session, held, at)
    return held


async def _set(session: AsyncSession, value: Fraction, at: datetime) -> None:
    await session.execute(
        update(jackpot_pot).where(jackpot_pot.c.id == POT_ID).values(amount_usd=exact_decimal(value), updated_at=at)
    )
