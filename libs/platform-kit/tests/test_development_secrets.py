"""A deployed service (any bus but `memory://`) refuses to start while a secret setting holds a development value:
the default or a placeholder committed for compose or the Kubernetes dev overlay. Standalone keeps its defaults."""

from __future__ import annotations

from pathlib import Path

import pytest
from messaging_fixture import metadata
from platform_kit.bus import InMemoryBus
from platform_kit.development_secrets import DevelopmentSecretsRefused
from platform_kit.runtime import ServiceRuntime
from platform_kit.settings import DEV_INTERNAL_TOKEN, ServiceSettings, service_config

DEPLOYED_BUS = "amqp://guest:guest@rabbit.invalid:5672/"
COMMITTED_PLACEHOLDERS = [DEV_INTERNAL_TOKEN, "compose-internal-token", "dev-internal-token-not-secret"]


class DemoSettings(ServiceSettings):
    model_config = service_config("demo")
    service_name: str = "demo"


def runtime(tmp_path: Path, **settings: str) -> ServiceRuntime:
    """The service's bus is handed in (in memory), so only its settings say whether it is deployed."""
    values = DemoSettings.model_validate(
        {"database_url": f"sqlite+aiosqlite:///{tmp_path}/demo.db", "migrate_on_start": False, **settings}
    )
    return ServiceRuntime(values, metadata=metadata, migrations_dir=tmp_path, bus=InMemoryBus())


@pytest.mark.parametrize("token", COMMITTED_PLACEHOLDERS)
async def test_a_deployed_service_refuses_a_development_internal_token(tmp_path: Path, token: str) -> None:
    service = runtime(tmp_path, bus_url=DEPLOYED_BUS, internal_token=token)
    with pytest.raises(DevelopmentSecretsRefused) as refused:
        await service.start()
    assert refused.value.variables == ["DEMO_INTERNAL_TOKEN"]
    message = str(refused.value)
    assert "DEMO_INTERNAL_TOKEN" in message
    assert "secrets.token_urlsafe" in message, "the error says how to make a value"
    assert token not in message, "the error does not echo the secret"


async def test_a_deployed_service_with_its_own_token_starts(tmp_path: Path) -> None:
    service = runtime(tmp_path, bus_url=DEPLOYED_BUS, internal_token="a-token-made-for-this-deployment-only")
    await service.start()
    await service.stop()


async def test_a_standalone_service_starts_on_the_development_defaults(tmp_path: Path) -> None:
    service = runtime(tmp_path)
    assert service.settings.standalone and service.settings.development_secrets() == ["DEMO_INTERNAL_TOKEN"]
    await service.start()
    await service.stop()


def test_variables_are_named_with_the_service_prefix() -> None:
    assert DemoSettings(bus_url=DEPLOYED_BUS).development_secrets() == ["DEMO_INTERNAL_TOKEN"]
    assert ServiceSettings(bus_url=DEPLOYED_BUS).development_secrets() == ["INTERNAL_TOKEN"]
    assert DemoSettings(bus_url=DEPLOYED_BUS, internal_token="fresh").development_secrets() == []
