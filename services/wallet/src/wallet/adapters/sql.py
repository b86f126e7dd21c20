"""Small helpers that keep the repositories portable between PostgreSQL and SQLite."""

from __future__ import annotations

import functools
from decimal import Decimal
from typing import Any

from sqlalchemy import ColumnElement, Table
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.ext.asyncio import AsyncSession
from sqlalchemy.sql.dml import Insert


def insert_ignoring_conflicts(session: AsyncSession, table: Table) -> Insert:
    """`INSERT … ON CONFLICT DO NOTHING`: on PostgreSQL it waits for a concurrent insert of the same key to
    commit or roll back, so the caller can then read the winner's row. Give it its row at execution: the
    statement is built once per table and dialect, so SQLAlchemy finds it compiled in its cache."""
    return _insert_ignoring_conflicts(table, session.get_bind().dialect.name)


@functools.cache
def _insert_ignoring_conflicts(table: Table, dialect: str) -> Insert:
    if dialect == "postgresql":
        return postgresql.insert(table).on_conflict_do_nothing()
    return sqlite.insert(table).on_conflict_do_nothing()


def insert_ignoring_conflicts_returning(session: AsyncSession, table: Table, *columns: ColumnElement[Any]) -> Insert:
    """`insert_ignoring_conflicts` returning `columns` of the rows it inserted (not of those it skipped); given
    many rows, SQLAlchemy sends them as one multi-row INSERT."""
    return _insert_ignoring_conflicts_returning(table, columns, session.get_bind().dialect.name)


@functools.cache
def _insert_ignoring_conflicts_returning(table: Table, columns: tuple[ColumnElement[Any], ...], dialect: str) -> Insert:
    return _insert_ignoring_conflicts(table, dialect).returning(*columns)


def for_update(session: AsyncSession) -> bool:
    """Row locks exist on PostgreSQL; SQLite serialises writers on the whole database instead."""
    return session.get_bind().dialect.name == "postgresql"


def writes_in_with(session: AsyncSession) -> bool:
    """PostgreSQL runs INSERTs inside a WITH clause (one statement for rows that refer to each other); SQLite
    does not."""
    return session.get_bind().dialect.name == "postgresql"


def as_int(value: int | Decimal | None) -> int:
    """PostgreSQL's SUM of BIGINT is NUMERIC: back to an exact int."""
    return int(value or 0)
