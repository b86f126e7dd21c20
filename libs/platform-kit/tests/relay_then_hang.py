"""Run as a process by the SIGKILL test: publish the outbox, then hang before marking the rows sent."""

from __future__ import annotations

import asyncio
import sys

from messaging_fixture import metadata
from platform_kit.bus import OutgoingMessage
from platform_kit.bus.rabbitmq import RabbitBus
from platform_kit.db import Database
from platform_kit.outbox import Outbox, OutboxRelay


class HangAfterPublish(RabbitBus):
    async def publish(self, message: OutgoingMessage) -> None:
        await super().publish(message)
        print("PUBLISHED", flush=True)
        await asyncio.Event().wait()  # killed here, between the broker's confirm and mark-sent


async def main(database_url: str, amqp_url: str) -> None:
    bus = HangAfterPublish(amqp_url)
    await bus.start()
    db = Database(database_url)
    await OutboxRelay(db, Outbox(metadata.tables["outbox"], producer="test"), bus).publish_pending()


if __name__ == "__main__":
    asyncio.run(main(sys.argv[1], sys.argv[2]))
