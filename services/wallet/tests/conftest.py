import sys
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
from fastapi import FastAPI

# The wallet's tests share a small HTTP client (wallet_test_client.py), also used by the SIGKILL test.
sys.path.insert(0, str(Path(__file__).parent))

from wallet_test_client import WalletApi, running_wallet


@pytest.fixture(params=["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)])
def database_url(request: pytest.FixtureRequest) -> str:
    """A test taking it runs on SQLite (standalone) and on PostgreSQL (deployed)."""
    return str(request.getfixturevalue(f"{request.param}_url"))


@pytest.fixture
async def wallet(database_url: str) -> AsyncIterator[tuple[FastAPI, WalletApi]]:
    async with running_wallet(database_url) as running:
        yield running
