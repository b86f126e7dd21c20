"""`make run`'s command: the whole platform in one process answers on the gateway within a minute."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
from pathlib import Path

import httpx
import pytest


def free_base_port() -> int:
    """Six consecutive free ports."""
    for base in range(18000, 30000, 10):
        try:
            sockets = []
            for port in range(base, base + 6):
                s = socket.socket()
                s.bind(("127.0.0.1", port))
                sockets.append(s)
            for s in sockets:
                s.close()
            return base
        except OSError:
            for s in sockets:
                s.close()
    raise RuntimeError("no free ports")


@pytest.mark.slow
def test_standalone_platform_serves_health_and_openapi(tmp_path: Path) -> None:
    base = free_base_port()
    process = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "platform_runner.cli",
            "standalone",
            "--data-dir",
            str(tmp_path),
            "--base-port",
            str(base),
        ],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        env=os.environ.copy(),
    )
    try:
        deadline = time.monotonic() + 60
        while True:
            assert process.poll() is None, process.stderr.read().decode()[-3000:] if process.stderr else ""
            try:
                if httpx.get(f"http://127.0.0.1:{base}/healthz", timeout=1).status_code == 200:
                    break
            except httpx.HTTPError:
                pass
            assert time.monotonic() < deadline, "gateway did not answer /healthz within a minute"
            time.sleep(0.25)
        openapi = httpx.get(f"http://127.0.0.1:{base}/openapi.json").json()
        assert openapi["info"]["title"] == "Gateway"
        for offset in range(6):
            # Each service migrates its database before it answers: wait for all of them, within the minute.
            while not _ready(base + offset):
                assert time.monotonic() < deadline, f"service on port {base + offset} not ready within a minute"
                time.sleep(0.25)
        assert {p.name for p in tmp_path.glob("*.db")} >= {"wallet.db", "gateway.db", "table-engine.db"}
    finally:
        process.terminate()
        process.wait(timeout=20)
    assert process.returncode == 0


def _ready(port: int) -> bool:
    try:
        return httpx.get(f"http://127.0.0.1:{port}/readyz", timeout=5).status_code == 200
    except httpx.HTTPError:
        return False
