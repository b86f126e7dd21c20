"""The machine's RabbitMQ, driven with `rabbitmqctl`: a private virtual host per run (so that a run's queues,
exchanges and dead letters are its own and go away with it), queue and binding listings, and broker restarts.

Every command runs as an asyncio subprocess: bots keep playing in the same event loop while the broker restarts.
"""

from __future__ import annotations

import asyncio
import json
from dataclasses import dataclass
from urllib.parse import quote, urlsplit, urlunsplit

RABBITMQCTL = "rabbitmqctl"


class BrokerError(RuntimeError):
    pass


@dataclass(frozen=True)
class QueueState:
    name: str
    messages: int
    consumers: int


@dataclass(frozen=True)
class Binding:
    source: str
    destination: str
    routing_key: str


async def rabbitmqctl(*args: str, timeout: float = 60.0) -> str:
    process = await asyncio.create_subprocess_exec(
        RABBITMQCTL, *args, stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE
    )
    try:
        out, err = await asyncio.wait_for(process.communicate(), timeout)
    except TimeoutError:
        process.kill()
        await process.wait()
        raise BrokerError(f"rabbitmqctl {' '.join(args)} did not finish within {timeout:.0f} s") from None
    if process.returncode != 0:
        raise BrokerError(f"rabbitmqctl {' '.join(args)} failed ({process.returncode}): {err.decode().strip()}")
    return out.decode()


class VirtualHost:
    """One run's virtual host on the broker at `base_url` (whose user gets every permission on it)."""

    def __init__(self, base_url: str, name: str) -> None:
        self.name = name
        parts = urlsplit(base_url)
        self.user = parts.username or "guest"
        self.url = urlunsplit(parts._replace(path="/" + quote(name, safe="")))

    async def create(self) -> None:
        await rabbitmqctl("add_vhost", self.name)
        await rabbitmqctl("set_permissions", "-p", self.name, self.user, ".*", ".*", ".*")

    async def delete(self) -> None:
        await rabbitmqctl("delete_vhost", self.name)

    async def queues(self) -> list[QueueState]:
        rows = await self._json("list_queues", "name", "messages", "consumers")
        return [QueueState(str(row["name"]), int(str(row["messages"])), int(str(row["consumers"]))) for row in rows]

    async def bindings(self) -> list[Binding]:
        rows = await self._json("list_bindings", "source_name", "destination_name", "routing_key")
        return [Binding(str(row["source_name"]), str(row["destination_name"]), str(row["routing_key"])) for row in rows]

    async def _json(self, command: str, *columns: str) -> list[dict[str, object]]:
        out = await rabbitmqctl(command, "-p", self.name, *columns, "--formatter", "json", "--quiet")
        found = json.loads(out or "[]")
        assert isinstance(found, list)
        return found


async def restart_broker() -> None:
    """Stop and start the RabbitMQ application (the Erlang node stays up): every connection drops, durable
    queues and their messages survive. Clients must reconnect by themselves."""
    await rabbitmqctl("stop_app")
    await rabbitmqctl("start_app")
    await rabbitmqctl("await_startup")


async def ensure_broker_running() -> None:
    """After an interrupted run: the application is started (a no-op when it already runs)."""
    await rabbitmqctl("start_app")
