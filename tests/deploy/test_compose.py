"""docker-compose.yml: valid by the Compose specification, and in agreement with the services' settings, the
PostgreSQL init script and the Kubernetes deployment."""

from __future__ import annotations

import json
import re
from importlib.resources import files
from pathlib import Path
from typing import Any

import jsonschema
import pytest
from platform_kit.settings import SERVICE_PORTS
from platform_runner.services import SERVICES, settings_class

ROOT = Path(__file__).resolve().parents[2]
INIT_SCRIPT = ROOT / "deploy" / "docker" / "postgres-init" / "01-service-databases.sh"
# Compose's own variable syntax, resolved by Compose before the container sees the value.
INTERPOLATION = re.compile(r"\$\{(\w+):-([^}]*)\}")
# A variable compose refuses to start without (`${NAME:?message}`): the value is the operator's, never the file's.
REQUIRED = re.compile(r"\$\{(\w+):\?[^}]+\}")


def compose_schema() -> dict[str, Any]:
    """The Compose specification's JSON schema, as shipped inside the check-jsonschema package (no network)."""
    schema: dict[str, Any] = json.loads(
        files("check_jsonschema.builtin_schemas.vendor").joinpath("compose-spec.json").read_text()
    )
    return schema


def environment(service: dict[str, Any]) -> dict[str, str]:
    return {name: INTERPOLATION.sub(r"\2", str(value)) for name, value in service.get("environment", {}).items()}


def prefix(service: str) -> str:
    value: str = settings_class(service).model_config["env_prefix"]
    return value


def test_compose_file_follows_the_compose_specification(compose: dict[str, Any]) -> None:
    jsonschema.validate(compose, compose_schema())


def test_compose_schema_check_is_not_vacuous(compose: dict[str, Any]) -> None:
    broken = json.loads(json.dumps(compose))
    broken["services"]["wallet"]["depends_on"]["postgres"]["condition"] = "service_ready"
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate(broken, compose_schema())


def test_compose_runs_the_six_services_the_runner_knows(compose: dict[str, Any]) -> None:
    names = set(compose["services"])
    assert {name for name in names if not name.startswith("migrate-")} == {*SERVICES, "postgres", "rabbitmq"}
    assert {name for name in names if name.startswith("migrate-")} == {f"migrate-{s}" for s in SERVICES}


def test_services_start_after_their_dependencies_and_migration(compose: dict[str, Any]) -> None:
    for service in SERVICES:
        definition = compose["services"][service]
        assert definition["command"] == ["serve", service]
        needs = definition["depends_on"]
        assert needs["postgres"] == needs["rabbitmq"] == {"condition": "service_healthy"}
        assert needs[f"migrate-{service}"] == {"condition": "service_completed_successfully"}
    gateway_needs = compose["services"]["gateway"]["depends_on"]
    assert all(gateway_needs[s] == {"condition": "service_healthy"} for s in SERVICES if s != "gateway")


def test_migrations_are_one_shot_containers_after_postgres(compose: dict[str, Any]) -> None:
    for service in SERVICES:
        migration = compose["services"][f"migrate-{service}"]
        assert migration["command"] == ["migrate", service]
        assert migration["restart"] == "no"
        assert migration["depends_on"] == {"postgres": {"condition": "service_healthy"}}
        assert set(environment(migration)) == {f"{prefix(service)}DATABASE_URL"}


def test_health_checks_probe_healthz_or_readyz(compose: dict[str, Any]) -> None:
    for service in SERVICES:
        test = compose["services"][service]["healthcheck"]["test"]
        assert test[0] == "CMD" and test[-1] in ("/healthz", "/readyz")
    assert compose["services"]["postgres"]["healthcheck"]["test"][1] == "pg_isready"
    assert "rabbitmq-diagnostics" in compose["services"]["rabbitmq"]["healthcheck"]["test"]


def test_environment_variables_are_settings_fields(compose: dict[str, Any]) -> None:
    for name, definition in compose["services"].items():
        service = name.removeprefix("migrate-")
        if service not in SERVICES:
            continue
        fields = settings_class(service).model_fields
        for variable in environment(definition):
            assert variable.startswith(prefix(service)), f"{name} gets {variable}"
            assert variable[len(prefix(service)) :].lower() in fields, variable


def test_checked_secrets_are_required_variables_without_a_fallback(compose: dict[str, Any]) -> None:
    """Every secret a service refuses a development value for (its settings' `development_values`: each internal
    token, the gateway's GATEWAY_JWT_SECRET and GATEWAY_ADMIN_PASSWORD) comes from the operator's environment or
    .env, and compose stops when one is not set: the file has no value and no `:-` fallback for it."""
    source = {
        "INTERNAL_TOKEN": "PLATFORM_INTERNAL_TOKEN",
        "JWT_SECRET": "GATEWAY_JWT_SECRET",
        "ADMIN_PASSWORD": "GATEWAY_ADMIN_PASSWORD",
    }
    for service in SERVICES:
        env = compose["services"][service]["environment"]
        for field in (name.upper() for name in settings_class(service).development_values):
            value = str(env.get(prefix(service) + field))
            required = REQUIRED.fullmatch(value)
            assert required is not None, f"{service}: {prefix(service) + field} = {value!r}"
            assert required.group(1) == source[field]


def test_settings_point_at_the_compose_network(compose: dict[str, Any]) -> None:
    """Bound to all interfaces on the standard port; peers, database and broker by their compose names."""
    for service in SERVICES:
        env = environment(compose["services"][service])
        own = prefix(service)
        assert env[f"{own}HOST"] == "0.0.0.0"
        assert env[f"{own}PORT"] == str(SERVICE_PORTS[service])
        assert env[f"{own}MIGRATE_ON_START"] == "false"
        assert env[f"{own}BUS_URL"] == "amqp://platform:platform@rabbitmq:5672/"
        broker = compose["services"]["rabbitmq"]["environment"]
        assert (broker["RABBITMQ_DEFAULT_USER"], broker["RABBITMQ_DEFAULT_PASS"]) == ("platform", "platform")
        for other in SERVICES:
            assert env[f"{own}{prefix(other)}URL"] == f"http://{other}:{SERVICE_PORTS[other]}"
        settings = settings_class(service).model_validate(
            {k[len(own) :].lower(): v for k, v in env.items() if k.startswith(own)}
        )
        assert settings.port == SERVICE_PORTS[service]


def test_services_addressing_tables_know_the_shard_count(
    compose: dict[str, Any], table_addressing_services: tuple[str, ...]
) -> None:
    """The shard count equals the number of table-engine containers: one, because compose gives every replica of a
    service the same environment, hence the same TABLE_ENGINE_SHARD_NAME (two containers would both be shard 0)."""
    engine = compose["services"]["table-engine"]
    containers = engine.get("deploy", {}).get("replicas", engine.get("scale", 1))
    assert containers == 1
    assert environment(engine)["TABLE_ENGINE_SHARD_NAME"] == "table-engine-0"
    for service in table_addressing_services:
        count = environment(compose["services"][service]).get(f"{prefix(service)}TABLE_ENGINE_SHARDS")
        assert count == str(containers), f"{service} routes tables over {count} shards, compose runs {containers}"


def test_each_service_has_its_own_database_created_by_the_init_script(compose: dict[str, Any]) -> None:
    (databases,) = re.findall(r"^for database in (.+); do$", INIT_SCRIPT.read_text(), flags=re.MULTILINE)
    assert databases.split() == [s.replace("-", "_") for s in SERVICES]
    for service in SERVICES:
        database = service.replace("-", "_")
        expected = f"postgresql+asyncpg://{database}:{database}@postgres:5432/{database}"
        for container in (service, f"migrate-{service}"):
            assert environment(compose["services"][container])[f"{prefix(service)}DATABASE_URL"] == expected
    mounts = compose["services"]["postgres"]["volumes"]
    assert f"./{INIT_SCRIPT.parent.relative_to(ROOT)}:/docker-entrypoint-initdb.d:ro" in mounts


def test_only_the_gateway_is_published_on_8000(compose: dict[str, Any]) -> None:
    published = {name: d["ports"] for name, d in compose["services"].items() if "ports" in d}
    assert published == {"gateway": ["8000:8000"], "rabbitmq": ["127.0.0.1:15672:15672"]}


def test_containers_are_locked_down(compose: dict[str, Any]) -> None:
    for name, definition in compose["services"].items():
        if name.removeprefix("migrate-") in SERVICES:
            assert definition["read_only"] is True
            assert definition["cap_drop"] == ["ALL"]
            assert definition["image"] == "poker-platform:local"
            assert definition["build"] == {"context": ".", "dockerfile": "Dockerfile"}


def test_compose_and_kubernetes_deploy_the_same_services(
    compose: dict[str, Any], rendered: dict[str, list[dict[str, Any]]]
) -> None:
    for manifests in rendered.values():
        workloads = {m["metadata"]["name"] for m in manifests if m["kind"] in ("Deployment", "StatefulSet")}
        assert workloads == {s for s in compose["services"] if s in SERVICES} == set(SERVICES)
