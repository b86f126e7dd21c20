"""Browser tests of the web client: headless Chromium (the Debian package at /usr/bin/chromium, driven by the
`playwright` package; no browser is ever downloaded) against the platform started as a subprocess in standalone
mode, or against a gateway alone with faked services. Screenshots go to tests-e2e/artifacts/ (gitignored).

Each module is marked `e2e`: `make test-fast` leaves them out; `uv run pytest tests-e2e/browser` runs them.
"""

from __future__ import annotations

import os
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

sys.path.insert(0, str(Path(__file__).parent))

from browser_support import ARTIFACTS, CHROMIUM, CHROMIUM_ARGS, Api, free_base_port, ready


@pytest.fixture(scope="session")
def platform_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """The whole platform, as `make run` starts it, with the house bots on; its gateway's base URL."""
    if not Path(CHROMIUM).exists():
        reason = f"no Chromium at {CHROMIUM} (apt-get install chromium): browser tests NOT run"
        if os.environ.get("CI", "").lower() in ("1", "true", "yes"):
            pytest.fail(reason)  # .ci/run installs it: a CI run without it is broken, not skippable
        pytest.skip(reason)
    data = tmp_path_factory.mktemp("platform")
    base = free_base_port()
    log = (data / "platform.log").open("w")
    # Unbuffered: a platform that dies leaves its whole log behind, not the part a buffer had flushed.
    env = {
        **os.environ,
        "GATEWAY_DEMO_BOTS": "true",
        "GATEWAY_ANONYMOUS_RATE_LIMIT_BURST": "200",
        "PYTHONUNBUFFERED": "1",
    }
    command = [
        sys.executable,
        "-m",
        "platform_runner.cli",
        "standalone",
        "--data-dir",
        str(data),
        "--base-port",
        str(base),
    ]
    process = subprocess.Popen(command, stdout=log, stderr=subprocess.STDOUT, env=env)
    try:
        deadline = time.monotonic() + 90
        for port in range(base, base + 6):
            while not ready(port):
                if process.poll() is not None:
                    pytest.fail(f"the platform stopped: see {data / 'platform.log'}")
                if time.monotonic() > deadline:
                    pytest.fail(f"service on port {port} not ready within 90 s")
                time.sleep(0.25)
        if process.poll() is not None:  # the ports answered, but not for this platform: it could not bind them
            pytest.fail(f"the platform stopped with status {process.returncode}: see {data / 'platform.log'}")
        yield f"http://127.0.0.1:{base}"
    finally:
        if process.poll() is not None:  # it stopped by itself during the tests: say how, for the failure's reader
            print(f"the platform had exited with status {process.returncode}", file=log, flush=True)
        process.terminate()
        try:
            process.wait(timeout=20)
        except subprocess.TimeoutExpired:
            process.kill()
        log.close()


@pytest.fixture
def api(platform_url: str) -> Iterator[Api]:
    client = Api(platform_url).staff()
    yield client
    client.http.close()


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    """Per module, not per session: sync Playwright runs an event loop in the test thread for as long as it is
    open, and every asyncio test a worker ran after the browser tests would find it running."""
    playwright_api = pytest.importorskip("playwright.sync_api")
    with playwright_api.sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield chromium
        chromium.close()


@pytest.fixture
def screenshot(request: pytest.FixtureRequest) -> Any:
    ARTIFACTS.mkdir(parents=True, exist_ok=True)

    def take(page: Any, name: str) -> Path:
        path = ARTIFACTS / f"{request.node.name}-{name}.png"
        page.screenshot(path=str(path), full_page=True)
        return path

    return take
