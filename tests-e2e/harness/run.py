"""One whole run: a private RabbitMQ virtual host and fresh databases, the six services started as processes, the
scenario played, quiet, the checks — and, whatever happens, everything torn down: processes killed, databases
dropped, the virtual host (with every queue of the run) deleted, the broker left running.

Logs and a `summary.json` stay in `tests-e2e/artifacts/<run>/` (git-ignored). With `E2E_KEEP_FAILED=1`, a run
that fails keeps its databases and virtual host for a post-mortem (their names are in the summary)."""

from __future__ import annotations

import contextlib
import json
import os
import secrets
import time
import uuid
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

import httpx
from platform_kit.testing import RABBITMQ_URL

from harness.broker import VirtualHost, ensure_broker_running
from harness.cast import STAFF
from harness.databases import create_databases, drop_databases
from harness.logs import Notable, notable_lines, tally
from harness.money_state import MoneyState
from harness.processes import START_ORDER, Platform
from harness.readers import Readers
from harness.scenario import PlayLog, Scenario, ScenarioPlan
from harness.verdict import check, wait_until_quiet

ARTIFACTS = Path(__file__).resolve().parents[1] / "artifacts"
KEEP_FAILED = os.environ.get("E2E_KEEP_FAILED", "") in ("1", "true", "yes")


def service_settings() -> dict[str, dict[str, str]]:
    """Per service, beyond the URLs, ports and databases: fast clocks and short timeouts for a CI run, cheap
    password hashing, no rate limits on the bots (all on one address), secrets of its own (on RabbitMQ a service
    refuses the development ones)."""
    return {
        "gateway": {
            "JWT_SECRET": secrets.token_hex(32),
            "ADMIN_EMAIL": STAFF.login,
            "ADMIN_PASSWORD": STAFF.password,
            "DEMO_BOTS": "false",
            "PASSWORD_HASH_TIME_COST": "1",
            "PASSWORD_HASH_MEMORY_KIB": "8",
            "RATE_LIMIT_PER_SECOND": "10000",
            "RATE_LIMIT_BURST": "10000",
            "ANONYMOUS_RATE_LIMIT_PER_SECOND": "10000",
            "ANONYMOUS_RATE_LIMIT_BURST": "10000",
            "ACCESS_TOKEN_TTL_SECONDS": "3600",
        },
        "tournament-director": {
            "ACTION_SECONDS": "2",
            "TIME_BANK_SECONDS": "0",
            "REBUY_OFFER_SECONDS": "3",
            "CLOCK_INTERVAL_SECONDS": "0.25",
            "MONEY_RETRY_SECONDS": "2",
            "WALLET_TIMEOUT_SECONDS": "5",
        },
        "table-engine": {"TIMER_INTERVAL_SECONDS": "0.1"},
        "wallet": {"RECONCILIATION_INTERVAL_SECONDS": "5"},
        "totalizator": {"TICK_INTERVAL_SECONDS": "0.5", "STAKE_RETRY_SECONDS": "2", "WALLET_TIMEOUT_SECONDS": "5"},
        "rating": {},
    }


@dataclass
class RunResult:
    name: str
    run_dir: Path
    seconds: float = 0.0
    problems: list[str] = field(default_factory=list)
    money: MoneyState | None = None
    log: PlayLog = field(default_factory=PlayLog)
    facts: dict[str, Any] = field(default_factory=dict)
    error: str | None = None
    kept: dict[str, str] = field(default_factory=dict)
    #: What had not ended when the play timed out (tournament or draw ids); checked as it was.
    unfinished: tuple[str, ...] = ()
    #: What the services warned about or failed at (their logs).
    notable: list[Notable] = field(default_factory=list)

    @property
    def failed(self) -> bool:
        return bool(self.error or self.problems)

    def summary(self) -> dict[str, Any]:
        bots = self.log.bots.values()
        return {
            "run": self.name,
            "kept_for_post_mortem": self.kept,
            "seconds": round(self.seconds, 1),
            "error": self.error,
            "unfinished": self.unfinished,
            "problems": self.problems,
            "log_warnings": tally(self.notable),
            "money": None if self.money is None else self.money.as_json(),
            "timings": self.log.timings,
            "faults": [asdict(record) for record in self.log.faults.records],
            "facts": self.facts,
            "bots": {
                "actions": sum(b.actions for b in bots),
                "timeouts": sum(b.timeouts for b in bots),
                "rebuys": sum(b.rebuys for b in bots),
                "addons": sum(b.addons for b in bots),
                "reconnects": sum(b.reconnects for b in bots),
            },
        }


async def run(plan: ScenarioPlan, artifacts: Path = ARTIFACTS) -> RunResult:
    name = f"{'faulty' if plan.faults else 'fault-free'}-seed{plan.seed}-{uuid.uuid4().hex[:6]}"
    result = RunResult(name, artifacts / name)
    result.run_dir.mkdir(parents=True)
    started = time.monotonic()
    vhost = VirtualHost(RABBITMQ_URL, f"e2e-{name}")
    databases: dict[str, str] = {}
    platform: Platform | None = None
    try:
        await vhost.create()
        databases = await create_databases(START_ORDER)
        platform = Platform(result.run_dir, databases, vhost.url, secrets.token_hex(16), service_settings())
        await platform.start()
        async with httpx.AsyncClient(base_url=platform.url("gateway"), timeout=10.0) as http:
            scenario = Scenario(platform, http, plan)
            result.log = scenario.log
            played = await scenario.play()
            if scenario.log.stalled:  # what did end is checked all the same
                result.error, result.unfinished = scenario.log.stalled, played.unfinished
            readers = Readers(platform, http)
            await wait_until_quiet(readers, vhost)
            verdict = await check(readers, vhost, played)
            result.problems, result.money, result.facts = verdict.problems, verdict.money, verdict.facts
            if dead := platform.dead():
                result.problems.append(f"services died outside the faults: {dead}")
    except Exception as error:  # reported by the result: the caller decides (a test fails, the bench says so)
        result.error = "; ".join(filter(None, [result.error, f"{type(error).__name__}: {error}"]))
    finally:
        result.seconds = time.monotonic() - started
        if platform is not None:
            platform.stop()
        with contextlib.suppress(Exception):
            await ensure_broker_running()
        if KEEP_FAILED and result.failed:
            result.kept = {**databases, "vhost": vhost.name}
        else:
            await drop_databases(databases.values())
            with contextlib.suppress(Exception):
                await vhost.delete()
        result.notable = notable_lines(result.run_dir)
        (result.run_dir / "summary.json").write_text(json.dumps(result.summary(), indent=2, default=str))
    return result
