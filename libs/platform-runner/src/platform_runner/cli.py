"""`platform standalone | serve SERVICE | migrate SERVICE | contracts [--check]`."""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

from platform_kit import logging as kit_logging
from platform_kit.bus import InMemoryBus
from platform_kit.migrations import upgrade_to_head

from platform_runner.services import SERVICES, app_factory, package, settings_class
from platform_runner.serving import run, serve_all


def standalone(data_dir: Path, host: str, base_port: int) -> None:
    """All six services in one process: in-memory bus, an SQLite file each under `data_dir`.

    Services listen on `base_port` (the gateway) and the five ports after it, and call each other there.
    """
    try:
        log_format = kit_logging.parse_format(os.environ.get("PLATFORM_LOG_FORMAT", "auto"))
    except ValueError as error:
        raise SystemExit(f"PLATFORM_LOG_FORMAT: {error}") from None
    kit_logging.configure(
        "platform", log_format=kit_logging.choose_format(log_format, standalone=True, stream=sys.stdout)
    )
    bus = InMemoryBus()
    ports = {service: base_port + offset for offset, service in enumerate(SERVICES)}
    urls = {f"{service.replace('-', '_')}_url": f"http://{host}:{port}" for service, port in ports.items()}
    apps = []
    for service in SERVICES:
        settings = settings_class(service).model_validate(
            {
                "database_url": f"sqlite+aiosqlite:///{data_dir / service}.db",
                "bus_url": "memory://",
                "host": host,
                "port": ports[service],
                **urls,
            }
        )
        apps.append((app_factory(service)(settings, bus=bus), settings))
    print(
        f"Platform starting (standalone): gateway on http://{host}:{base_port}  (web client /, API docs /docs, "
        f"OpenAPI /openapi.json); services on ports {base_port + 1}-{base_port + 5}; data in {data_dir}/",
        file=sys.stderr,
        flush=True,
    )
    run(serve_all(apps))


def serve(service: str) -> None:
    """One service alone, configured from its environment variables (distributed mode)."""
    settings = settings_class(service)()
    log_format = kit_logging.choose_format(settings.log_format, standalone=settings.standalone, stream=sys.stdout)
    kit_logging.configure(service, settings.log_level, log_format)
    run(serve_all([(app_factory(service)(settings), settings)]))


def migrate(service: str) -> None:
    settings = settings_class(service)()
    migrations = Path(__import__(package(service)).__file__ or "").resolve().parents[2] / "migrations"
    upgrade_to_head(settings.database_url, migrations)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="platform", description=__doc__)
    commands = parser.add_subparsers(dest="command", required=True)
    run_all = commands.add_parser("standalone", help="all services in one process on embedded defaults")
    run_all.add_argument("--data-dir", type=Path, default=Path("data"))
    run_all.add_argument("--host", default="127.0.0.1")
    run_all.add_argument("--base-port", type=int, default=8000, help="gateway port; the others follow it")
    for name, help_text in (
        ("serve", "one service, configured from the environment"),
        ("migrate", "upgrade one service's database to the latest migration"),
    ):
        sub = commands.add_parser(name, help=help_text)
        sub.add_argument("service", choices=SERVICES)
    contracts = commands.add_parser("contracts", help="write contracts/ from the code (or --check for drift)")
    contracts.add_argument("--check", action="store_true")
    args = parser.parse_args(argv)
    if args.command == "standalone":
        standalone(args.data_dir, args.host, args.base_port)
    elif args.command == "serve":
        serve(args.service)
    elif args.command == "migrate":
        migrate(args.service)
    else:
        from platform_runner.contracts import write_or_check

        sys.exit(write_or_check(Path("contracts"), check=args.check))


if __name__ == "__main__":
    main()
