"""The distributed platform of a capacity run: the e2e harness's six service processes (`harness.processes`),
with several table-engine shards and several gateway instances, and the balancer giving the gateways one
address.

Replicas share their service's database, so nobody migrates at start-up: each database is migrated first, once,
by `platform migrate <service>` (as a deployment's migration job does). Then the first process of every service
starts, and only once they are ready the other replicas, so that the gateway's start-up work (the administrator,
the demo concessionaire) is done by one instance and found done by the others.
"""

from __future__ import annotations

import asyncio
import socket
import subprocess
import sys
from dataclasses import dataclass, field, replace

import httpx
from harness.processes import START_ORDER, Platform, ServiceFailed, ServiceProcess, env_prefix, free_port, log_tail

from capacity import ROOT

MIGRATION_TIMEOUT = 180.0


@dataclass
class CapacityPlatform(Platform):
    shards: int = 2
    gateways: int = 2
    #: service → its processes' names in `services` (`table-engine-0`…, `gateway-1`…; others: the service's).
    instances: dict[str, list[str]] = field(default_factory=dict)
    balancer_port: int = 0
    balancer: subprocess.Popen[bytes] | None = None

    def __post_init__(self) -> None:
        super().__post_init__()
        single: dict[str, ServiceProcess] = dict(self.services)
        self.services = {}
        for service, process in single.items():
            names = self._replica_names(service)
            self.instances[service] = names
            for index, name in enumerate(names):
                self.services[name] = self._replica(process, name, index)
        self.balancer_port = free_port()

    def _replica_names(self, service: str) -> list[str]:
        if service == "table-engine":
            return [f"table-engine-{shard}" for shard in range(self.shards)]
        if service == "gateway":
            return [f"gateway-{n}" for n in range(1, self.gateways + 1)]
        return [service]

    def _replica(self, first: ServiceProcess, name: str, index: int) -> ServiceProcess:
        """The first replica keeps the port the other services were told; table-engine shards name themselves."""
        prefix = env_prefix(first.service)
        port = first.port if index == 0 else free_port()
        env = {**first.env, f"{prefix}PORT": str(port)}
        if first.service == "table-engine":
            env[f"{prefix}SHARD_NAME"] = name
        return replace(first, port=port, env=env, log_path=self.run_dir / f"{name}.log")

    @property
    def public_url(self) -> str:
        """The one address the bots use: the balancer in front of the gateways."""
        return f"http://127.0.0.1:{self.balancer_port}"

    def url(self, service: str) -> str:
        return self.services[self.instances[service][0]].url

    def pids(self) -> dict[str, int]:
        found = {name: p.process.pid for name, p in self.services.items() if p.process is not None}
        if self.balancer is not None:
            found["balancer"] = self.balancer.pid
        return found

    async def start(self) -> None:
        await asyncio.gather(*(self._migrate(service) for service in START_ORDER))
        first = [self.instances[service][0] for service in START_ORDER]
        others = [name for service in START_ORDER for name in self.instances[service][1:]]
        async with httpx.AsyncClient() as http:
            for wave in (first, others):
                for name in wave:
                    self.services[name].start()
                for name in wave:
                    await self.services[name].wait_ready(http, self.ready_timeout)
        await self._start_balancer()

    async def _migrate(self, service: str) -> None:
        process = self.services[self.instances[service][0]]
        log_path = self.run_dir / f"{service}-migrate.log"
        with log_path.open("wb") as log:
            migration = await asyncio.create_subprocess_exec(
                sys.executable, "-m", "platform_runner.cli", "migrate", service, env=process.env, stdout=log, stderr=log
            )
            code = await asyncio.wait_for(migration.wait(), MIGRATION_TIMEOUT)
        if code != 0:
            raise ServiceFailed(f"migrating {service} failed ({code}):\n{log_tail(log_path)}")

    async def _start_balancer(self) -> None:
        gateways = [self.services[name] for name in self.instances["gateway"]]
        with (self.run_dir / "balancer.log").open("ab") as log:
            self.balancer = subprocess.Popen(
                [sys.executable, "-m", "capacity.balancer", "--port", str(self.balancer_port)]
                + [f"127.0.0.1:{g.port}" for g in gateways],
                env={**gateways[0].env, "PYTHONPATH": str(ROOT / "bench")},
                stdout=log,
                stderr=subprocess.STDOUT,
                stdin=subprocess.DEVNULL,
                start_new_session=True,
            )
        loop = asyncio.get_running_loop()
        deadline = loop.time() + 30.0
        while True:
            try:
                socket.create_connection(("127.0.0.1", self.balancer_port), timeout=1).close()
                return
            except OSError:
                if self.balancer.poll() is not None or loop.time() > deadline:
                    tail = log_tail(self.run_dir / "balancer.log")
                    raise ServiceFailed(f"the balancer did not start:\n{tail}") from None
                await asyncio.sleep(0.1)

    def stop(self) -> None:
        if self.balancer is not None and self.balancer.poll() is None:
            self.balancer.terminate()
            try:
                self.balancer.wait(5.0)
            except subprocess.TimeoutExpired:
                self.balancer.kill()
                self.balancer.wait()
        super().stop()
