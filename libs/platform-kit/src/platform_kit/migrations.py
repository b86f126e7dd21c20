"""Alembic, per service: each service's `migrations/env.py` calls `run_env(metadata)`; services upgrade to head
at start-up (standalone) or in a migration job (Kubernetes) through `upgrade_to_head`."""

from __future__ import annotations

import asyncio
import threading
from pathlib import Path

from alembic import command, context
from alembic.config import Config
from alembic.operations import Operations
from sqlalchemy import Connection, MetaData
from sqlalchemy.ext.asyncio import create_async_engine


def alembic_config(database_url: str, migrations_dir: Path) -> Config:
    config = Config()
    config.set_main_option("script_location", str(migrations_dir))
    config.set_main_option("sqlalchemy.url", database_url)
    return config


# Alembic keeps the running migration in module globals: two upgrades in one process must not overlap
# (standalone mode migrates six databases at start-up).
_one_at_a_time = threading.Lock()


def upgrade_to_head(database_url: str, migrations_dir: Path) -> None:
    """Blocking: run it in a thread from async code (`asyncio.to_thread`), as env.py runs its own loop."""
    with _one_at_a_time:
        command.upgrade(alembic_config(database_url, migrations_dir), "head")


def run_env(metadata: MetaData) -> None:
    """The body of every service's `migrations/env.py` (online mode, async engine)."""
    url = context.config.get_main_option("sqlalchemy.url")
    assert url, "sqlalchemy.url is not configured"

    def do_run(connection: Connection) -> None:
        context.configure(
            connection=connection,
            target_metadata=metadata,
            render_as_batch=connection.dialect.name == "sqlite",
            compare_type=True,
        )
        with context.begin_transaction():
            context.run_migrations()
        if connection.dialect.name == "sqlite":
            # The file in WAL (the mode is the file's) before the service's pools open on it: switched by the
            # first of them instead, it raced the others opening at start-up ("database is locked").
            connection.exec_driver_sql("PRAGMA journal_mode=WAL")

    async def run() -> None:
        engine = create_async_engine(url)
        async with engine.connect() as connection:
            await connection.run_sync(do_run)
        await engine.dispose()

    asyncio.run(run())


def messaging_metadata() -> MetaData:
    """The kit's own tables that every service database carries: the outbox and the inbox."""
    from platform_kit.inbox import inbox_table
    from platform_kit.outbox import outbox_table

    metadata = MetaData()
    outbox_table(metadata)
    inbox_table(metadata)
    return metadata


def create_messaging_tables(op: Operations) -> None:
    """For a service's first migration: create the outbox and inbox exactly as the kit defines them."""
    messaging_metadata().create_all(op.get_bind())


def drop_messaging_tables(op: Operations) -> None:
    messaging_metadata().drop_all(op.get_bind())
