"""The in-memory transport keeps the RabbitMQ transport's semantics: topic routing, retries, dead letters."""

from __future__ import annotations

import pytest
from messaging_fixture import CreditGranted
from platform_kit.bus import Envelope, InMemoryBus, topic_matches
from platform_kit.events.base import PRIVATE_PREFIX
from platform_kit.testing import eventually


@pytest.mark.parametrize(
    ("pattern", "key", "matches"),
    [
        ("wallet.transfer.posted", "wallet.transfer.posted", True),
        ("wallet.*.posted", "wallet.transfer.posted", True),
        ("wallet.*", "wallet.transfer.posted", False),
        ("wallet.#", "wallet.transfer.posted", True),
        ("#", "anything.at.all", True),
        ("#.posted", "wallet.transfer.posted", True),
        ("table.#.act", "table.shard.3.act", True),
        ("table.#.act", "table.shard.3.fold", False),
    ],
)
def test_topic_matching_follows_amqp(pattern: str, key: str, matches: bool) -> None:
    assert topic_matches(pattern, key) is matches


async def test_failing_handler_is_retried_then_dead_lettered() -> None:
    bus = InMemoryBus()
    seen: list[str] = []

    async def flaky(envelope: Envelope) -> None:
        seen.append(envelope.id)
        raise RuntimeError("boom")

    await bus.subscribe("q", ["test.#"], flaky, max_deliveries=4)
    envelope = Envelope.wrap(CreditGranted(account="a", amount=1), producer="test")
    await bus.publish(envelope.outgoing())
    await eventually(lambda: _true(bool(bus.dead_letters("q"))))
    assert seen == [envelope.id] * 4
    assert [dead.id for dead in bus.dead_letters("q")] == [envelope.id]
    await bus.close()


async def test_each_queue_gets_its_own_copy_in_order() -> None:
    bus = InMemoryBus()
    got: dict[str, list[int]] = {"a": [], "b": []}

    def recorder(name: str):  # type: ignore[no-untyped-def]
        async def handle(envelope: Envelope) -> None:
            got[name].append(envelope.payload["amount"])

        return handle

    await bus.subscribe("a", ["test.credit.*"], recorder("a"))
    await bus.subscribe("b", ["other.#"], recorder("b"))
    for amount in range(5):
        await bus.publish(Envelope.wrap(CreditGranted(account="x", amount=amount), producer="test").outgoing())
    await bus.drain()
    assert got == {"a": [0, 1, 2, 3, 4], "b": []}
    await bus.close()


async def _true(value: bool) -> bool:
    return value


async def test_runtime_routes_private_events_and_commands_to_their_handlers(tmp_path) -> None:  # type: ignore[no-untyped-def]
    """A handler bound to `private.…` or to a command queue's `<queue>.#` gets those messages (P-1.4 routing)."""
    from messaging_fixture import create_schema, metadata
    from platform_kit.runtime import ServiceRuntime
    from platform_kit.settings import ServiceSettings

    bus = InMemoryBus()
    settings = ServiceSettings(
        service_name="demo", database_url=f"sqlite+aiosqlite:///{tmp_path}/d.db", migrate_on_start=False
    )
    runtime = ServiceRuntime(settings, metadata=metadata, migrations_dir=tmp_path, bus=bus)
    await create_schema(runtime.db)
    seen: list[str] = []

    async def record(_session, envelope: Envelope) -> None:  # type: ignore[no-untyped-def]
        seen.append(envelope.payload["account"])

    runtime.on("private.test.#", record)
    runtime.on("shard-7.#", record, queue="shard-7")
    await runtime.start()
    async with runtime.db.transaction() as session:
        await runtime.outbox.add(
            session, CreditGranted(account="private", amount=1), routing_key=PRIVATE_PREFIX + CreditGranted.TYPE
        )
        await runtime.outbox.add(session, CreditGranted(account="public", amount=1))
        await runtime.outbox.add(
            session, CreditGranted(account="command", amount=1), routing_key="shard-7.test.credit.granted"
        )
    await eventually(lambda: _true(len(seen) == 2))
    await bus.drain()
    assert sorted(seen) == ["command", "private"]
    await runtime.stop()
    await bus.close()


async def test_one_handler_bound_by_two_patterns_gets_a_message_once_and_public_patterns_skip_private_ones(
    tmp_path,  # type: ignore[no-untyped-def]
) -> None:
    """A fan-out consumer bound to `test.#` and `private.test.#` (as the gateway binds `table.#` and
    `private.table.#`) receives each message once; a handler bound only to `test.#` never sees a private one."""
    from messaging_fixture import create_schema, metadata
    from platform_kit.runtime import ServiceRuntime
    from platform_kit.settings import ServiceSettings

    bus = InMemoryBus()
    settings = ServiceSettings(
        service_name="fan", database_url=f"sqlite+aiosqlite:///{tmp_path}/f.db", migrate_on_start=False
    )
    runtime = ServiceRuntime(settings, metadata=metadata, migrations_dir=tmp_path, bus=bus)
    await create_schema(runtime.db)
    both: list[str] = []
    public_only: list[str] = []

    async def record_both(envelope: Envelope) -> None:
        both.append(envelope.payload["account"])

    async def record_public(envelope: Envelope) -> None:
        public_only.append(envelope.payload["account"])

    runtime.on_each_instance("test.#", record_both)
    runtime.on_each_instance("private.test.#", record_both)
    runtime.on_each_instance("test.#", record_public)
    await runtime.start()
    async with runtime.db.transaction() as session:
        await runtime.outbox.add(
            session, CreditGranted(account="secret", amount=1), routing_key=PRIVATE_PREFIX + CreditGranted.TYPE
        )
        await runtime.outbox.add(session, CreditGranted(account="open", amount=1))
    await eventually(lambda: _true(len(both) == 2))
    await bus.drain()
    assert sorted(both) == ["open", "secret"]
    assert public_only == ["open"]
    await runtime.stop()
    await bus.close()
