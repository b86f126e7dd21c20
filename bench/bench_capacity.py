"""The platform's capacity: every service its own process on RabbitMQ and PostgreSQL (table-engine shards and
gateway instances behind one address), driven through the gateway only by bots (REST and a WebSocket each, many
per asyncio process), with the figures an SRE sizes a deployment by and, at the end, every invariant of the
end-to-end harness. A run that breaks one exits non-zero.

    uv run python bench/bench_capacity.py --ci                                  # 300 players, mtt, fast
    uv run python bench/bench_capacity.py --scenario mtt [--players 3000] [--window 120] [--fast | --duration 300]
    uv run python bench/bench_capacity.py --scenario sng [--tables 100] [--fast | --duration 300]
    uv run python bench/bench_capacity.py --scenario toto-rush [--coupons 20000] [--window 120]
    ... [--shards 2] [--gateways 2] [--load-processes N] [--think LOW,HIGH] [--seed N]

Without `--scenario` it runs the `--ci` preset. Needs PostgreSQL and RabbitMQ on the machine (and `rabbitmqctl`);
without them it says so and exits 0 (`make bench` runs every benchmark). Everything it starts is stopped and
dropped at the end, also after a failure, Ctrl-C or SIGTERM; logs stay in bench/results/capacity/<run>/.
"""

from __future__ import annotations

import argparse
import asyncio
import sys

from bench_e2e import missing_servers
from capacity.options import from_arguments, parser
from capacity.report import render
from capacity.run import run


def main() -> int:
    arguments = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter, parents=[parser()]
    ).parse_args()
    options = from_arguments(arguments)
    if missing := missing_servers():
        print(f"capacity benchmark skipped: not reachable: {', '.join(missing)}")
        return 0
    print(f"capacity run: {options.describe()} — starting the platform …", flush=True)
    result = asyncio.run(run(options))
    print(render(result))
    return 1 if result.failed else 0


if __name__ == "__main__":
    sys.exit(main())
