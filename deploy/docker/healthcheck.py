"""Docker HEALTHCHECK of the platform image: `python /app/healthcheck.py [PATH]` (PATH defaults to /healthz).

One image serves all six services (`platform serve SERVICE`), so the service, and with it the port, is read
from the command line of the container's main process; the port then comes from that service's own settings,
exactly as the server computed it (`<PREFIX>PORT` overrides included). A container running a one-shot command
(`platform migrate SERVICE`) has nothing to probe and counts as healthy.
"""

from __future__ import annotations

import sys
import urllib.request
from collections.abc import Sequence
from pathlib import Path

MAIN_PROCESS_CMDLINE = Path("/proc/1/cmdline")


def served_service(argv: Sequence[str]) -> str | None:
    """The SERVICE of `... platform serve SERVICE` (behind an init process or not), else None."""
    for position, word in enumerate(argv[:-1]):
        if word == "serve" and Path(argv[position - 1]).name == "platform":
            return argv[position + 1]
    return None


def main_process_argv() -> list[str]:
    return [part.decode() for part in MAIN_PROCESS_CMDLINE.read_bytes().split(b"\0") if part]


def probe(service: str, path: str) -> bool:
    # Imported here, not at the top: a one-shot container never pays for importing the settings.
    from platform_runner.services import settings_class

    port = settings_class(service)().port
    try:
        with urllib.request.urlopen(f"http://127.0.0.1:{port}{path}", timeout=4) as response:
            return bool(response.status == 200)
    except OSError:  # refused, timed out, or an HTTP error status (HTTPError is an OSError)
        return False


def main() -> int:
    path = sys.argv[1] if len(sys.argv) > 1 else "/healthz"
    service = served_service(main_process_argv())
    if service is None:
        return 0
    return 0 if probe(service, path) else 1


if __name__ == "__main__":
    sys.exit(main())
