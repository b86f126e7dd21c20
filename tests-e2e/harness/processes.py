"""The six services as separate processes, started the way a deployment starts them
(`python -m platform_runner.cli serve <service>`, configured only by environment variables), so that a SIGKILL
hits the server itself and nothing in between.

Each service gets its own database, a free port and the other services' URLs; its log (JSON lines on stderr)
goes to `<run dir>/<service>.log`, appended across restarts with a marker line per start.
"""

from __future__ import annotations

import asyncio
import os
import signal
import socket
import subprocess
import sys
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path

import httpx
from platform_runner.services import SERVICES

#: Dependencies first: nothing needs the gateway, the gateway needs everyone. (All start at once anyway; the
#: order only decides who is asked for readiness first.)
START_ORDER = ("wallet", "rating", "totalizator", "table-engine", "tournament-director", "gateway")
assert sorted(START_ORDER) == sorted(SERVICES)


class ServiceFailed(RuntimeError):
    pass


def env_prefix(service: str) -> str:
    return service.replace("-", "_").upper() + "_"


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


def listening_ports(pid: int) -> set[int]:
    """The TCP ports process `pid` listens on: its sockets (`/proc/<pid>/fd`) found among the listening ones
    (state 0A) of `/proc/net/tcp` and `tcp6`; none once it exited. Linux only, like SO_REUSEPORT's balancing."""
    try:
        fds = list(Path(f"/proc/{pid}/fd").iterdir())
    except FileNotFoundError:
        return set()
    inodes = set()
    for fd in fds:
        try:
            target = os.readlink(fd)
        except OSError:  # closed since listed
            continue
        if target.startswith("socket:["):
            inodes.add(target.removeprefix("socket:[").removesuffix("]"))
    ports = set()
    for table in ("/proc/net/tcp", "/proc/net/tcp6"):
        for line in Path(table).read_text().splitlines()[1:]:
            fields = line.split()
            if fields[3] == "0A" and fields[9] in inodes:
                ports.add(int(fields[1].rsplit(":", 1)[1], 16))
    return ports


def log_tail(path: Path, lines: int = 30) -> str:
    if not path.exists():
        return "(no log)"
    return "\n".join(path.read_text(errors="replace").splitlines()[-lines:])


@dataclass
class ServiceProcess:
    service: str
    port: int
    env: dict[str, str]
    log_path: Path
    #: Several processes of the service share the port (`<PREFIX>REUSE_PORT`): any of them answers its URL.
    shared_port: bool = False
    process: subprocess.Popen[bytes] | None = None
    starts: int = 0
    kills: int = 0

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def alive(self) -> bool:
        return self.process is not None and self.process.poll() is None

    def start(self) -> None:
        if self.alive:
            raise ServiceFailed(f"{self.service} is already running")
        self.starts += 1
        with self.log_path.open("ab") as log:
            log.write(f"=== e2e harness: start #{self.starts} of {self.service} on port {self.port}\n".encode())
            log.flush()
            self.process = subprocess.Popen(
                [sys.executable, "-m", "platform_runner.cli", "serve", self.service],
                env=self.env,
                stdout=log,
                stderr=subprocess.STDOUT,
                stdin=subprocess.DEVNULL,
                start_new_session=True,  # a Ctrl-C in the test's terminal does not reach the services
            )

    def kill(self) -> None:
        """SIGKILL: no shutdown hook runs, open transactions and unacknowledged messages are left as they are."""
        if self.process is None:
            return
        if self.process.poll() is None:
            self.kills += 1
            os.kill(self.process.pid, signal.SIGKILL)
        self.process.wait()

    def stop(self, grace: float = 10.0) -> None:
        """SIGTERM, then SIGKILL after `grace` seconds."""
        if self.process is None or self.process.poll() is not None:
            return
        self.process.send_signal(signal.SIGTERM)
        try:
            self.process.wait(grace)
        except subprocess.TimeoutExpired:
            self.kill()

    def _joined(self) -> bool:
        """Whether an answer on the port can be this process's: always when the port is its own; when shared,
        once it listens there."""
        return not self.shared_port or (self.process is not None and self.port in listening_ports(self.process.pid))

    async def wait_ready(self, http: httpx.AsyncClient, timeout: float) -> None:
        """Until `/readyz` answers 200 (database and broker reachable); fails at once if the process died.

        On a shared port the answer may come from another process of the service, so this one must also be
        listening: the runner listens only once the app has started (its database and broker connected), and
        from then on the kernel hands it its share of the connections."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        last = "no answer"
        while loop.time() < deadline:
            if not self.alive:
                raise ServiceFailed(f"{self.service} exited while starting:\n{log_tail(self.log_path)}")
            try:
                answer = await http.get(f"{self.url}/readyz", timeout=2.0)
                if answer.status_code == 200 and self._joined():
                    return
                last = f"{answer.status_code} {answer.text[:200]}"
                if answer.status_code == 200:
                    last += " from another process on the shared port; this one is not listening yet"
            except httpx.HTTPError as error:
                last = repr(error)
            await asyncio.sleep(0.2)
        raise ServiceFailed(
            f"{self.service} not ready within {timeout:.0f} s (last: {last}):\n{log_tail(self.log_path)}"
        )


@dataclass
class Platform:
    """The six processes of one run. `settings` are extra variables per service, without the prefix."""

    run_dir: Path
    databases: Mapping[str, str]
    bus_url: str
    internal_token: str
    settings: Mapping[str, Mapping[str, str]] = field(default_factory=dict)
    services: dict[str, ServiceProcess] = field(default_factory=dict)
    ready_timeout: float = 90.0

    def __post_init__(self) -> None:
        ports = {service: free_port() for service in START_ORDER}
        urls = {
            f"{service.replace('-', '_').upper()}_URL": f"http://127.0.0.1:{port}" for service, port in ports.items()
        }
        for service in START_ORDER:
            prefix = env_prefix(service)
            own = {
                "DATABASE_URL": self.databases[service],
                "BUS_URL": self.bus_url,
                "HOST": "127.0.0.1",
                "PORT": str(ports[service]),
                "INTERNAL_TOKEN": self.internal_token,
                "TABLE_ENGINE_SHARDS": "1",
                "MIGRATE_ON_START": "true",
                "LOG_LEVEL": "INFO",
                **urls,
                **self.settings.get(service, {}),
            }
            env = {name: value for name, value in os.environ.items() if not name.startswith(env_prefix(service))}
            env.update({prefix + name: value for name, value in own.items()})
            self.services[service] = ServiceProcess(service, ports[service], env, self.run_dir / f"{service}.log")

    def url(self, service: str) -> str:
        return self.services[service].url

    async def start(self) -> None:
        for process in self.services.values():
            process.start()
        async with httpx.AsyncClient() as http:
            for service in START_ORDER:
                await self.services[service].wait_ready(http, self.ready_timeout)

    async def kill_and_restart(self, service: str, down_seconds: float) -> None:
        """SIGKILL the service, leave it down for `down_seconds`, start it again and wait until it is ready."""
        process = self.services[service]
        process.kill()
        await asyncio.sleep(down_seconds)
        process.start()
        async with httpx.AsyncClient() as http:
            await process.wait_ready(http, self.ready_timeout)

    def dead(self) -> list[str]:
        """Services whose process has exited (none should, outside a fault)."""
        return [service for service, process in self.services.items() if process.process and not process.alive]

    def stop(self) -> None:
        """Stop everything: SIGTERM, SIGKILL for the slow ones. Safe to call twice."""
        for process in self.services.values():
            if process.alive and process.process is not None:
                process.process.send_signal(signal.SIGTERM)
        for process in self.services.values():
            process.stop(grace=5.0)
