"""The capacity harness at its `--ci` size (300 players, one scheduled tournament played fast to the end on two
table-engine shards and two gateways): every invariant of the e2e harness holds, and no request met a 5xx or a
timeout. Nothing is timed: the figures are the benchmark's business (`bench/bench_capacity.py --ci`).

Run alone, like the e2e runs (it starts eleven processes and loads both cores for a few minutes):
`uv run pytest tests-e2e/test_capacity.py -p no:cacheprovider`.
"""

from __future__ import annotations

import asyncio
import json
import shutil
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "bench"))

import pytest
from capacity.options import CI
from capacity.run import CapacityResult, run
from platform_kit.testing import POSTGRES_ADMIN_URL, RABBITMQ_URL, require

pytestmark = [
    pytest.mark.e2e,
    pytest.mark.serial,
    pytest.mark.postgres,
    pytest.mark.rabbitmq,
    pytest.mark.slow,
    pytest.mark.timeout(1500),
]


@pytest.fixture(scope="module")
def ci_run() -> CapacityResult:
    require(POSTGRES_ADMIN_URL, "PostgreSQL")
    require(RABBITMQ_URL, "RabbitMQ")
    if shutil.which("rabbitmqctl") is None:
        pytest.skip("rabbitmqctl is not installed: the run's virtual host and queues are read with it")
    return asyncio.run(run(CI))


def _summary(result: CapacityResult) -> str:
    return json.dumps({k: v for k, v in result.summary().items() if k != "routes"}, indent=1, default=str)


def test_the_ci_run_plays_to_the_end(ci_run: CapacityResult) -> None:
    assert ci_run.error is None, _summary(ci_run)
    assert ci_run.meter.counts["bots stopped before the end"] == 0, _summary(ci_run)
    assert ci_run.meter.counts["bots failed"] == 0, _summary(ci_run)


def test_every_invariant_holds(ci_run: CapacityResult) -> None:
    """The ledger sums to zero per currency; chips are conserved in every hand and the winner holds them all
    (P-2.1); every event is applied once; every entrant is ranked once (P-2.1, P-2.4); the pool is paid as the
    schedule says (P-8); the ratings follow the ranking (P-11.1)."""
    assert set(ci_run.problems) >= {"ledger", "messaging", "prizes", "rankings", "chips", "ratings"}
    assert not any(ci_run.problems.values()), _summary(ci_run)


def test_no_request_met_a_server_error_or_a_timeout(ci_run: CapacityResult) -> None:
    """Refusals (429, 503 with Retry-After) are allowed: the bots wait them out. Server errors and timeouts are
    not. (A keep-alive connection the server closes as a request goes out is the client's lot, retried: it is
    reported, not failed.)"""
    failing = {
        route: {"5xx": dict(s.statuses), "timeouts": s.timeouts}
        for route, s in {**ci_run.meter.routes, **ci_run.staff.routes}.items()
        if s.server_errors or s.timeouts
    }
    assert failing == {}
