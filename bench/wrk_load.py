"""Load from wrk (Debian's package), a C load generator that leaves the cores to the servers it measures: one run of
a Lua script against a URL, its rate, latency percentiles and failures. Shared by the benchmarks that drive a
service over HTTP (bench_gateway.py, bench_wallet.py)."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import tempfile
from collections.abc import Callable
from dataclasses import dataclass


@dataclass(frozen=True)
class Figures:
    throughput: float
    p50_ms: float
    p99_ms: float
    max_ms: float
    failed: int


def installed() -> bool:
    return shutil.which("wrk") is not None


def run_wrk(
    script: str,
    url: str,
    *,
    connections: int,
    seconds: float,
    env: dict[str, str],
    warm_up: float = 2.0,
    measuring: Callable[[], None] = lambda: None,
) -> Figures:
    """`script` (wrk's Lua) against `url` with `connections` open, after `warm_up` seconds of the same load.
    `env` is added to the script's environment (it reads it with os.getenv), and `WRK_PHASE`, "warm-up" or
    "measured": a script that keys its requests (Idempotency-Key) puts the phase in its keys, or the measured run
    sends the warm-up's keys again (wrk's random numbers repeat from run to run) and is answered with replays.
    `measuring()` is called as the measured run starts: counters read there cover it alone."""
    with tempfile.NamedTemporaryFile("w", suffix=".lua", delete=False) as file:
        file.write(script)
    command = ["wrk", "-t2", f"-c{connections}", "--latency", "-s", file.name]
    try:
        if warm_up > 0:
            subprocess.run(
                [*command, f"-d{warm_up:g}s", url],
                env={**os.environ, **env, "WRK_PHASE": "warm-up"},
                capture_output=True,
                check=True,
            )
        measuring()
        out = subprocess.run(
            [*command, f"-d{seconds:g}s", url],
            env={**os.environ, **env, "WRK_PHASE": "measured"},
            capture_output=True,
            text=True,
            check=True,
        ).stdout
    finally:
        os.unlink(file.name)
    return parse_wrk(out)


def parse_wrk(out: str) -> Figures:
    if "Latency Distribution" not in out:
        raise SystemExit(f"wrk printed no latency distribution:\n{out}")

    def ms(text: str) -> float:
        number, unit = re.fullmatch(r"([\d.]+)(us|ms|s|m)", text).groups()  # type: ignore[union-attr]
        return float(number) * {"us": 0.001, "ms": 1.0, "s": 1000.0, "m": 60_000.0}[unit]

    rate = float(re.search(r"Requests/sec:\s+([\d.]+)", out).group(1))  # type: ignore[union-attr]
    p50 = ms(re.search(r"^\s+50%\s+(\S+)\s*$", out, re.MULTILINE).group(1))  # type: ignore[union-attr]
    p99 = ms(re.search(r"^\s+99%\s+(\S+)\s*$", out, re.MULTILINE).group(1))  # type: ignore[union-attr]
    worst = ms(re.search(r"Latency\s+\S+\s+\S+\s+(\S+)", out).group(1))  # type: ignore[union-attr]
    non_2xx = re.search(r"Non-2xx or 3xx responses:\s+(\d+)", out)
    errors = re.search(r"Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)", out)
    failed = (int(non_2xx.group(1)) if non_2xx else 0) + (sum(map(int, errors.groups())) if errors else 0)
    return Figures(rate, p50, p99, worst, failed)
