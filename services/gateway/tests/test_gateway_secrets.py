"""A deployed gateway (bus other than `memory://`) refuses to start on any development secret — the signing key
of access tokens, the bootstrap administrator's password, the internal token — and names each by its variable.
Standalone still starts on the defaults, so that a newcomer can try the platform at once."""

from typing import Any

import pytest
from gateway.app import create_app
from gateway.settings import DEV_ADMIN_PASSWORD, DEV_JWT_SECRET, Settings
from platform_kit.bus import InMemoryBus
from platform_kit.development_secrets import DevelopmentSecretsRefused
from platform_kit.settings import DEV_INTERNAL_TOKEN
from platform_kit.testing import running_app

DEPLOYED_BUS = "amqp://guest:guest@rabbit.invalid:5672/"
FRESH = {
    "jwt_secret": "a-signing-key-generated-for-this-deployment-only",
    "admin_password": "an administrator password of this deployment",
    "internal_token": "an internal token of this deployment",
}
DEFAULTS = {"jwt_secret": DEV_JWT_SECRET, "admin_password": DEV_ADMIN_PASSWORD, "internal_token": DEV_INTERNAL_TOKEN}
VARIABLES = {
    "jwt_secret": "GATEWAY_JWT_SECRET",
    "admin_password": "GATEWAY_ADMIN_PASSWORD",
    "internal_token": "GATEWAY_INTERNAL_TOKEN",
}


def settings(database_url: str, **values: Any) -> Settings:
    return Settings.model_validate(
        {"database_url": database_url, "migrate_on_start": False, "password_hash_memory_kib": 64, **values}
    )


@pytest.mark.parametrize(
    "defaulted",
    [["jwt_secret"], ["admin_password"], ["internal_token"], ["jwt_secret", "admin_password", "internal_token"]],
)
async def test_a_deployed_gateway_refuses_development_secrets_and_names_them(
    database_url: str, defaulted: list[str]
) -> None:
    values = {**FRESH, **{name: DEFAULTS[name] for name in defaulted}}
    app = create_app(settings(database_url, bus_url=DEPLOYED_BUS, **values), bus=InMemoryBus())
    with pytest.raises(DevelopmentSecretsRefused) as refused:
        async with app.router.lifespan_context(app):
            pass
    assert refused.value.variables == sorted(VARIABLES[name] for name in defaulted)
    for name in VARIABLES.values():
        assert (name in str(refused.value)) == (name in refused.value.variables)


async def test_a_deployed_gateway_with_its_own_secrets_starts(database_url: str) -> None:
    app = create_app(settings(database_url, bus_url=DEPLOYED_BUS, **FRESH), bus=InMemoryBus())
    async with running_app(app, "http://gateway.test") as http:
        assert (await http.get("/healthz")).status_code == 200


async def test_a_standalone_gateway_starts_on_the_development_defaults(database_url: str) -> None:
    app = create_app(settings(database_url), bus=InMemoryBus())
    async with running_app(app, "http://gateway.test") as http:
        login = {"email": "admin@example.com", "password": DEV_ADMIN_PASSWORD}
        assert (await http.post("/api/v1/auth/staff/login", json=login)).status_code == 200
