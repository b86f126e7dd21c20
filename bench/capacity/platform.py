"""The distributed platform of a capacity run: the e2e harness's six service processes (`harness.processes`),
with several table-engine shards and several gateway instances sharing one port (`GATEWAY_REUSE_PORT`: the
kernel spreads the bots' connections over them, as a layer-4 load balancer would, at no CPU of its own — a
proxy process in the harness took a third of a core from the platform). Each new connection, a reconnecting
WebSocket's too, lands on either gateway: table events reach players on both, and a bot resumes on whichever
it reaches.

Replicas share their service's database, so nobody migrates at start-up: each database is migrated first, once,
by `platform migrate <service>` (as a deployment's migration job does). Then the first process of every service
starts, and only once they are ready the other replicas, so that the gateway's start-up work (the administrator,
the demo concessionaire) is done by one instance and found done by the others.
"""

from __future__ import annotations

import asyncio
import sys
from dataclasses import dataclass, field, replace

import httpx
from harness.processes import START_ORDER, Platform, ServiceFailed, ServiceProcess, env_prefix, free_port, log_tail

MIGRATION_TIMEOUT = 180.0


@dataclass
class CapacityPlatform(Platform):
    shards: int = 2
    gateways: int = 2
    #: service → its processes' names in `services` (`table-engine-0`…, `gateway-1`…; others: the service's).
    instances: dict[str, list[str]] = field(default_factory=dict)

    def __post_init__(self) -> None:
        super().__post_init__()
        single: dict[str, ServiceProcess] = dict(self.services)
        self.services = {}
        for service, process in single.items():
            names = self._replica_names(service)
            self.instances[service] = names
            for index, name in enumerate(names):
                self.services[name] = self._replica(process, name, index)

    def _replica_names(self, service: str) -> list[str]:
        if service == "table-engine":
            return [f"table-engine-{shard}" for shard in range(self.shards)]
        if service == "gateway":
            return [f"gateway-{n}" for n in range(1, self.gateways + 1)]
        return [service]

    def _replica(self, first: ServiceProcess, name: str, index: int) -> ServiceProcess:
        """The first replica keeps the port the other services were told, and the gateways all share it;
        table-engine shards name themselves."""
        prefix = env_prefix(first.service)
        shared = first.service == "gateway"
        port = first.port if index == 0 or shared else free_port()
        env = {**first.env, f"{prefix}PORT": str(port)}
        if shared:
            env[f"{prefix}REUSE_PORT"] = "true"
        if first.service == "table-engine":
            env[f"{prefix}SHARD_NAME"] = name
        return replace(first, port=port, env=env, log_path=self.run_dir / f"{name}.log", shared_port=shared)

    @property
    def public_url(self) -> str:
        """The one address the bots use: the gateways' shared port."""
        return self.url("gateway")

    def url(self, service: str) -> str:
        return self.services[self.instances[service][0]].url

    def pids(self) -> dict[str, int]:
        return {name: p.process.pid for name, p in self.services.items() if p.process is not None}

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
