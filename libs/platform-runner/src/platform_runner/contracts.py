"""`contracts/` generated from the code: an OpenAPI document per service, a JSON Schema per event, and the
AsyncAPI document of the bus. `platform contracts --check` (and a test) fails when the two have drifted."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

from platform_kit.bus import Envelope, InMemoryBus
from platform_kit.bus.transport import EVENTS_EXCHANGE
from platform_kit.events import EVENT_TYPES, Command, Event

from platform_runner.services import SERVICES, app_factory, settings_class


def render(document: Any) -> str:
    return json.dumps(document, indent=2, sort_keys=True, ensure_ascii=False) + "\n"


def openapi_documents() -> dict[str, Any]:
    documents = {}
    for service in SERVICES:
        # Building an app does not start it: no database or broker is touched.
        settings = settings_class(service)(database_url="sqlite+aiosqlite:///:memory:", migrate_on_start=False)
        documents[service] = app_factory(service)(settings, bus=InMemoryBus()).openapi()
    return documents


def event_schemas() -> dict[str, Any]:
    """The platform's messages: those declared in `platform_kit.events` (tests may register their own)."""
    return {
        event_type: model.model_json_schema()
        for event_type, model in sorted(EVENT_TYPES.items())
        if model.__module__.startswith("platform_kit.events.")
    }


def asyncapi_document(schemas: dict[str, Any]) -> dict[str, Any]:
    envelope = Envelope.model_json_schema()
    channels: dict[str, Any] = {}
    messages: dict[str, Any] = {}
    operations: dict[str, Any] = {}
    for event_type in schemas:
        key = event_type.replace(".", "_")
        model = EVENT_TYPES[event_type]
        messages[key] = {
            "name": event_type,
            "title": event_type,
            "summary": (model.__doc__ or "").strip().split("\n")[0],
            "contentType": "application/json",
            "payload": {
                "allOf": [{"$ref": "#/components/schemas/Envelope"}],
                "properties": {
                    "type": {"const": event_type},
                    "schema_version": {"const": model.VERSION},
                    "payload": {"$ref": f"events/{event_type}.json"},
                },
            },
        }
        channels[key] = {**_channel(model), "messages": {key: {"$ref": f"#/components/messages/{key}"}}}
        operations[f"publish_{key}"] = {"action": "send", "channel": {"$ref": f"#/channels/{key}"}}
    return {
        "asyncapi": "3.0.0",
        "info": {
            "title": "Platform events",
            "version": "1.0.0",
            "description": "Facts the services publish on RabbitMQ. Delivery is at least once; every consumer "
            "deduplicates on the envelope id (inbox).",
        },
        "defaultContentType": "application/json",
        "servers": {"rabbitmq": {"host": "rabbitmq:5672", "protocol": "amqp", "protocolVersion": "0.9.1"}},
        "channels": channels,
        "operations": operations,
        "components": {"schemas": {"Envelope": envelope}, "messages": messages},
    }


def _channel(model: type[Event]) -> dict[str, Any]:
    """Where a message travels: the key its producer publishes it under, not its type, which a private event or
    a command is not published under."""
    if issubclass(model, Command):
        return {
            "address": f"{{queue}}.{model.TYPE}",
            "description": f"A command, addressed to one consumer's queue on the topic exchange `{EVENTS_EXCHANGE}` "
            "(the table engine's: `table-engine.shard-<n>`, from `platform_kit.events.table.command_routing_key`).",
            "parameters": {"queue": {"description": "The consuming queue, e.g. `table-engine.shard-0`."}},
        }
    key = model.routing_key()
    description = f"Routing key `{key}` on the topic exchange `{EVENTS_EXCHANGE}`."
    if model.PRIVATE:
        description += " Private (P-1.4): for the payload's `player_id` alone; no public binding matches it."
    return {"address": key, "description": description}


CONFIGURATION_DOC = "../docs/configuration.md"


def expected_files() -> dict[str, str]:
    from platform_runner.configuration import render as render_configuration

    schemas = event_schemas()
    files = {f"openapi/{service}.json": render(doc) for service, doc in openapi_documents().items()}
    files.update({f"events/{event_type}.json": render(schema) for event_type, schema in schemas.items()})
    files["asyncapi.json"] = render(asyncapi_document(schemas))
    files[CONFIGURATION_DOC] = render_configuration()
    return files


def drift(root: Path) -> list[str]:
    """Paths under `root` that differ from what the code generates (missing, changed or stale)."""
    expected = expected_files()
    problems = [
        path for path, text in expected.items() if not (root / path).is_file() or (root / path).read_text() != text
    ]
    existing = {str(p.relative_to(root)) for p in root.rglob("*.json")} if root.exists() else set()
    problems += sorted(existing - set(expected))
    return sorted(problems)


def write_or_check(root: Path, *, check: bool) -> int:
    if check:
        problems = drift(root)
        for path in problems:
            print(f"contracts drift: {root / path}", file=sys.stderr)
        if problems:
            print("run `make contracts` and commit the result", file=sys.stderr)
        return 1 if problems else 0
    expected = expected_files()
    for stale in set(str(p.relative_to(root)) for p in root.rglob("*.json")) - set(expected) if root.exists() else ():
        (root / stale).unlink()
    for path, text in expected.items():
        (root / path).parent.mkdir(parents=True, exist_ok=True)
        (root / path).write_text(text)
    print(f"wrote {len(expected)} contract files under {root}/")
    return 0
