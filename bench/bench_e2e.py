"""One end-to-end run of the whole platform (tests-e2e/harness), outside pytest: how long each phase takes, what
the faults cost, what the bots did, and whether every invariant held.

    uv run python bench/bench_e2e.py                 # fault-free, seed 20261129
    uv run python bench/bench_e2e.py --faults        # every service SIGKILLed once, the broker restarted once
    uv run python bench/bench_e2e.py --seed 7 --players 40

Needs PostgreSQL and RabbitMQ on the machine (and `rabbitmqctl`), like `make test`; without them it says so and
exits 0 (`make bench` runs every benchmark). It restarts the broker with `--faults`: do not run it while other
tests use RabbitMQ.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import shutil
import socket
import sys
from pathlib import Path
from urllib.parse import urlparse

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests-e2e"))

from harness.faults import EVERY_SERVICE_AND_THE_BROKER
from harness.run import run
from harness.scenario import ScenarioPlan
from platform_kit.testing import POSTGRES_ADMIN_URL, RABBITMQ_URL


def missing_servers() -> list[str]:
    missing = [] if shutil.which("rabbitmqctl") else ["rabbitmqctl"]
    for url in (POSTGRES_ADMIN_URL, RABBITMQ_URL):
        parsed = urlparse(url)
        try:
            socket.create_connection((parsed.hostname or "127.0.0.1", parsed.port or 0), timeout=1).close()
        except OSError:
            missing.append(url)
    return missing


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seed", type=int, default=20261129)
    parser.add_argument("--faults", action="store_true")
    parser.add_argument("--players", type=int, default=30, help="players of the rebuy tournament (10-30)")
    args = parser.parse_args()
    if missing := missing_servers():
        print(f"e2e benchmark skipped: not reachable: {', '.join(missing)}")
        return 0
    plan = ScenarioPlan(
        seed=args.seed,
        faults=EVERY_SERVICE_AND_THE_BROKER if args.faults else (),
        scheduled_players=args.players,
    )
    result = asyncio.run(run(plan))
    summary = result.summary()
    print(f"{'phase':<28}{'seconds':>9}")
    for phase, at in summary["timings"].items():
        print(f"{phase:<28}{at:>9.1f}")
    print(f"{'whole run':<28}{summary['seconds']:>9.1f}")
    for fault in summary["faults"]:
        print(f"fault {fault['target']:<22} at {fault['at']:5.1f} s, back after {fault['recovered_after']:4.1f} s")
    for what, facts in summary["facts"].items():
        print(f"{what}:", json.dumps(facts))
    print("bots:", json.dumps(summary["bots"]))
    print("money:", json.dumps(summary["money"], default=str))
    print("log warnings:", "none" if not summary["log_warnings"] else "\n  " + "\n  ".join(summary["log_warnings"]))
    if result.error:
        print("run failed:", result.error)
    print("problems:", "none" if not result.problems else "\n  " + "\n  ".join(result.problems))
    print("artifacts:", result.run_dir)
    return 1 if result.failed else 0


if __name__ == "__main__":
    sys.exit(main())
