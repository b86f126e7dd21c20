"""deploy/k8s: the dev and prod overlays, rendered, checked against the Kubernetes 1.30 schemas and against the
services themselves: names, ports, environment variables, probes, selectors, secrets, policies."""

from __future__ import annotations

import json
import os
import shutil
import socket
import subprocess
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import jsonschema
import kubernetes_validate
import pytest
import referencing
import yaml
from platform_kit.settings import SERVICE_PORTS
from platform_runner.services import SERVICES, settings_class
from table_engine.settings import Settings as TableEngineSettings

ROOT = Path(__file__).resolve().parents[2]
K8S = ROOT / "deploy" / "k8s"
OVERLAYS = ("dev", "prod")
KUBERNETES_VERSION = "1.30"
SCHEMAS = Path(__file__).parent / "schemas"
# Custom resources the validator does not know, checked against hand-written schemas in schemas/.
CUSTOM_SCHEMAS = {
    ("rabbitmq.com/v1beta1", "RabbitmqCluster"): "rabbitmqcluster.rabbitmq.com-v1beta1.json",
    ("monitoring.coreos.com/v1", "PodMonitor"): "podmonitor.monitoring.coreos.com-v1.json",
    ("monitoring.coreos.com/v1", "PrometheusRule"): "prometheusrule.monitoring.coreos.com-v1.json",
}
NAME = "app.kubernetes.io/name"
COMPONENT = "app.kubernetes.io/component"
STATEFUL = "table-engine"
STATELESS = [s for s in SERVICES if s != STATEFUL]
# Secrets an operator writes, not this deployment: the RabbitMQ cluster operator's default user of cluster `rabbitmq`.
OPERATOR_SECRETS = {"rabbitmq-default-user": {"username", "password", "host", "port", "connection_string"}}
# Secrets no file holds, not even in dev: deploy.sh creates them with random values in dev, prod must have them.
GENERATED_SECRETS = {"platform-internal-token": {"token"}, "gateway-secrets": {"jwt-secret", "admin-password"}}


Manifest = dict[str, Any]


# -- helpers -------------------------------------------------------------------------------------------------
def environment_prefix(service: str) -> str:
    prefix: str = settings_class(service).model_config["env_prefix"]
    return prefix


def secret_variables(service: str) -> set[str]:
    """The variables of the settings a deployed service refuses development values for (`development_values`)."""
    return {(environment_prefix(service) + name).upper() for name in settings_class(service).development_values}


@pytest.fixture(params=OVERLAYS)
def manifests(request: pytest.FixtureRequest, rendered: dict[str, list[Manifest]]) -> list[Manifest]:
    return rendered[request.param]


def of_kind(manifests: list[Manifest], kind: str) -> list[Manifest]:
    return [m for m in manifests if m["kind"] == kind]


def one(manifests: list[Manifest], kind: str, name: str) -> Manifest:
    found = [m for m in of_kind(manifests, kind) if m["metadata"]["name"] == name]
    assert len(found) == 1, f"expected one {kind} {name}, found {len(found)}"
    return found[0]


def server(manifests: list[Manifest], service: str) -> Manifest:
    """The service's server workload: the table engine's StatefulSet, another service's Deployment."""
    return one(manifests, "StatefulSet" if service == STATEFUL else "Deployment", service)


def workloads(manifests: list[Manifest]) -> list[Manifest]:
    return of_kind(manifests, "Deployment") + of_kind(manifests, "StatefulSet")


def pod_owners(manifests: list[Manifest]) -> list[Manifest]:
    """Everything that has a pod template: the servers and the migration Jobs."""
    return workloads(manifests) + of_kind(manifests, "Job")


def pod_labels(owner: Manifest) -> dict[str, str]:
    labels: dict[str, str] = owner["spec"]["template"]["metadata"]["labels"]
    return labels


def pod_spec(owner: Manifest) -> dict[str, Any]:
    spec: dict[str, Any] = owner["spec"]["template"]["spec"]
    return spec


def selects(selector: dict[str, str], labels: dict[str, str]) -> bool:
    return all(labels.get(key) == value for key, value in selector.items())


def selected_owners(manifests: list[Manifest], selector: dict[str, str]) -> list[Manifest]:
    return [owner for owner in pod_owners(manifests) if selects(selector, pod_labels(owner))]


def config_map_keys(manifests: list[Manifest], container: dict[str, Any]) -> set[str]:
    keys: set[str] = set()
    for source in container.get("envFrom", []):
        assert set(source) == {"configMapRef"}, "only ConfigMaps are loaded whole; Secrets are picked key by key"
        keys |= set(one(manifests, "ConfigMap", source["configMapRef"]["name"])["data"])
    return keys


def environment(manifests: list[Manifest], container: dict[str, Any]) -> set[str]:
    return {variable["name"] for variable in container.get("env", [])} | config_map_keys(manifests, container)


def environment_value(manifests: list[Manifest], container: dict[str, Any], name: str) -> str | None:
    """The value the container gets for `name`: a literal, a ConfigMap key, or a key of a ConfigMap loaded whole."""
    for variable in container.get("env", []):
        if variable["name"] == name:
            if "value" in variable:
                return str(variable["value"])
            reference = variable["valueFrom"]["configMapKeyRef"]
            value: str = one(manifests, "ConfigMap", reference["name"])["data"][reference["key"]]
            return value
    for source in container.get("envFrom", []):
        data = one(manifests, "ConfigMap", source["configMapRef"]["name"])["data"]
        if name in data:
            return str(data[name])
    return None


def secret_references(manifests: list[Manifest]) -> Iterator[tuple[str, str]]:
    for owner in pod_owners(manifests):
        for container in pod_spec(owner)["containers"]:
            for variable in container.get("env", []):
                reference = variable.get("valueFrom", {}).get("secretKeyRef")
                if reference:
                    yield reference["name"], reference["key"]


def cpu(quantity: str | int) -> float:
    text = str(quantity)
    return int(text[:-1]) / 1000 if text.endswith("m") else float(text)


def kubectl_kustomize(overlay: str) -> list[Manifest]:
    output = subprocess.run(
        ["kubectl", "kustomize", str(K8S / "overlays" / overlay)], check=True, capture_output=True, text=True
    ).stdout
    return [doc for doc in yaml.safe_load_all(output) if doc is not None]


def custom_resource_validator(manifest: Manifest) -> jsonschema.protocols.Validator:
    common = json.loads((SCHEMAS / "common.json").read_text())
    schema = json.loads((SCHEMAS / CUSTOM_SCHEMAS[manifest["apiVersion"], manifest["kind"]]).read_text())
    registry: referencing.Registry[Any] = referencing.Registry().with_resource(
        "https://platform.invalid/schemas/common.json", referencing.Resource.from_contents(common)
    )
    return jsonschema.Draft202012Validator(schema, registry=registry)


def validate(manifest: Manifest) -> None:
    if (manifest["apiVersion"], manifest["kind"]) in CUSTOM_SCHEMAS:
        custom_resource_validator(manifest).validate(manifest)
    else:
        kubernetes_validate.validate(manifest, KUBERNETES_VERSION, strict=True)


# -- rendering and schemas -----------------------------------------------------------------------------------
def test_every_object_has_a_unique_kind_and_name(manifests: list[Manifest]) -> None:
    keys = [(m["kind"], m["metadata"]["name"]) for m in manifests]
    assert len(keys) == len(set(keys))


def test_every_object_validates_against_its_schema(manifests: list[Manifest]) -> None:
    """Kubernetes 1.30 schemas, strict (no unknown fields); hand-written schemas for the three custom resources."""
    for manifest in manifests:
        validate(manifest)


def test_schemas_reject_an_unknown_field(rendered: dict[str, list[Manifest]]) -> None:
    """The schema checks are not vacuous: a misspelt field fails, built-in or custom."""
    deployment = one(rendered["dev"], "Deployment", "wallet")
    broken = json.loads(json.dumps(deployment))
    broken["spec"]["template"]["spec"]["containers"][0]["readinesProbe"] = {}
    with pytest.raises(kubernetes_validate.ValidationError):
        validate(broken)
    cluster = json.loads(json.dumps(one(rendered["dev"], "RabbitmqCluster", "rabbitmq")))
    cluster["spec"]["replica"] = 3
    with pytest.raises(jsonschema.ValidationError):
        validate(cluster)


def test_validation_needs_no_network(rendered: dict[str, list[Manifest]], monkeypatch: pytest.MonkeyPatch) -> None:
    """kubernetes-validate reads the schemas shipped inside the package."""

    def no_network(*_: object, **__: object) -> None:
        raise AssertionError("schema validation tried to open a network connection")

    monkeypatch.setattr(socket.socket, "connect", no_network)
    monkeypatch.setattr(socket, "create_connection", no_network)
    validate(one(rendered["prod"], "StatefulSet", "table-engine"))


@pytest.mark.parametrize("overlay", OVERLAYS)
def test_renderer_agrees_with_kustomize(overlay: str, rendered: dict[str, list[Manifest]]) -> None:
    """The tests' own renderer produces what `kubectl kustomize` (Kustomize inside kubectl) produces."""
    if shutil.which("kubectl") is None:
        pytest.skip("kubectl is not installed: the test renderer is not compared with Kustomize itself")

    def keyed(manifests: list[Manifest]) -> dict[tuple[str, str], Manifest]:
        return {(m["kind"], m["metadata"]["name"]): m for m in manifests}

    assert keyed(rendered[overlay]) == keyed(kubectl_kustomize(overlay))


def test_renderer_refuses_what_it_does_not_implement(
    tmp_path: Path, render_kustomization: Callable[[Path], list[Manifest]]
) -> None:
    (tmp_path / "kustomization.yaml").write_text("resources: []\ncommonLabels: {team: poker}\n")
    with pytest.raises(NotImplementedError, match="commonLabels"):
        render_kustomization(tmp_path)


# -- the six services ----------------------------------------------------------------------------------------
def test_each_service_has_workload_service_config_budget_and_migration_job(manifests: list[Manifest]) -> None:
    assert sorted(w["metadata"]["name"] for w in workloads(manifests)) == sorted(SERVICES)
    for service in SERVICES:
        server(manifests, service)
        one(manifests, "Service", service)
        one(manifests, "ConfigMap", f"{service}-config")
        one(manifests, "PodDisruptionBudget", service)
        one(manifests, "Job", f"{service}-migrate")


def test_containers_run_their_own_service(manifests: list[Manifest]) -> None:
    """`platform serve SERVICE` in the servers, `platform migrate SERVICE` in the Jobs, SERVICE = the name label."""
    for owner in pod_owners(manifests):
        service = pod_labels(owner)[NAME]
        (container,) = pod_spec(owner)["containers"]
        command = "migrate" if owner["kind"] == "Job" else "serve"
        assert container["args"] == [command, service]
        assert pod_labels(owner)[COMPONENT] == ("migration" if command == "migrate" else "server")
        assert container["image"].split(":")[0].endswith("poker-platform")


def test_ports_agree_with_the_settings(manifests: list[Manifest]) -> None:
    for service in SERVICES:
        port = SERVICE_PORTS[service]
        config = one(manifests, "ConfigMap", f"{service}-config")["data"]
        assert config[f"{environment_prefix(service)}PORT"] == str(port)
        assert pod_spec(server(manifests, service))["containers"][0]["ports"] == [
            {"name": "http", "containerPort": port, "protocol": "TCP"}
        ]
        assert [p["port"] for p in one(manifests, "Service", service)["spec"]["ports"]] == [port]


def test_every_service_selects_server_pods_on_existing_ports(manifests: list[Manifest]) -> None:
    for service in of_kind(manifests, "Service"):
        if service["spec"].get("type") == "ExternalName":
            continue
        owners = selected_owners(manifests, service["spec"]["selector"])
        assert owners, f"Service {service['metadata']['name']} selects no pod"
        assert all(pod_labels(o)[COMPONENT] == "server" for o in owners), "a Service must not select migration pods"
        for port in service["spec"]["ports"]:
            for owner in owners:
                names = {p["name"] for c in pod_spec(owner)["containers"] for p in c.get("ports", [])}
                assert port["targetPort"] in names


def test_environment_variables_are_settings_fields(manifests: list[Manifest]) -> None:
    """Every variable a pod gets is `<SERVICE>_<FIELD>` for a field of that service's settings class."""
    for owner in pod_owners(manifests):
        service = pod_labels(owner)[NAME]
        prefix = environment_prefix(service)
        fields = settings_class(service).model_fields
        for container in pod_spec(owner)["containers"]:
            for name in environment(manifests, container):
                assert name.startswith(prefix), f"{service} gets {name}, outside its prefix {prefix}"
                assert name[len(prefix) :].lower() in fields, f"{name} is not a setting"


def test_configured_values_are_settings_the_service_accepts(manifests: list[Manifest]) -> None:
    """What the ConfigMaps and literals say is valid for the service's own settings (e.g. a trusted-proxy list of
    `*`, which the settings refuse, would stop every pod at start-up). Secrets are not in the manifests: a
    stand-in takes their place."""
    for owner in workloads(manifests):
        service = pod_labels(owner)[NAME]
        prefix = environment_prefix(service)
        container = pod_spec(owner)["containers"][0]
        given = {
            name[len(prefix) :].lower(): value
            for name in environment(manifests, container)
            if (value := environment_value_or_none(manifests, container, name)) is not None
        }
        settings_class(service).model_validate(given)


def environment_value_or_none(manifests: list[Manifest], container: dict[str, Any], name: str) -> str | None:
    """`environment_value`, or None for a variable taken from a Secret or the pod's own fields."""
    for variable in container.get("env", []):
        if variable["name"] == name and "configMapKeyRef" not in variable.get("valueFrom", {"configMapKeyRef": 1}):
            return None
    return environment_value(manifests, container, name)


def test_servers_get_database_bus_and_internal_token_from_secrets(manifests: list[Manifest]) -> None:
    for owner in workloads(manifests):
        prefix = environment_prefix(pod_labels(owner)[NAME])
        env = {v["name"]: v for v in pod_spec(owner)["containers"][0]["env"]}
        for field in ("DATABASE_URL", "BUS_URL", "INTERNAL_TOKEN"):
            assert "secretKeyRef" in env[prefix + field]["valueFrom"]


def test_servers_get_every_checked_secret_from_a_secret_and_never_inline(manifests: list[Manifest]) -> None:
    """The internal token of every service, and the gateway's signing key and bootstrap administrator password
    (GATEWAY_JWT_SECRET, GATEWAY_ADMIN_PASSWORD): a server left on the settings' development default would refuse
    to start, and a value in a manifest or a ConfigMap would be committed."""
    assert secret_variables("gateway") == {"GATEWAY_INTERNAL_TOKEN", "GATEWAY_JWT_SECRET", "GATEWAY_ADMIN_PASSWORD"}
    for owner in pod_owners(manifests):
        service = pod_labels(owner)[NAME]
        (container,) = pod_spec(owner)["containers"]
        env = {v["name"]: v for v in container.get("env", [])}
        assert not secret_variables(service) & config_map_keys(manifests, container), (
            f"{service}: a secret in a ConfigMap"
        )
        for name in secret_variables(service) & set(env):
            assert set(env[name]) == {"name", "valueFrom"} and set(env[name]["valueFrom"]) == {"secretKeyRef"}, name
        if owner["kind"] != "Job":
            assert secret_variables(service) <= set(env), f"{service} lacks {secret_variables(service) - set(env)}"
    gateway = {v["name"]: v for v in pod_spec(server(manifests, "gateway"))["containers"][0]["env"]}
    assert gateway["GATEWAY_JWT_SECRET"]["valueFrom"]["secretKeyRef"] == {
        "name": "gateway-secrets",
        "key": "jwt-secret",
    }
    assert gateway["GATEWAY_ADMIN_PASSWORD"]["valueFrom"]["secretKeyRef"] == {
        "name": "gateway-secrets",
        "key": "admin-password",
    }


def test_service_urls_point_at_the_services(manifests: list[Manifest]) -> None:
    for service in SERVICES:
        config = one(manifests, "ConfigMap", f"{service}-config")["data"]
        assert config[f"{environment_prefix(service)}HOST"] == "0.0.0.0"
        assert config[f"{environment_prefix(service)}MIGRATE_ON_START"] == "false"
        for other in SERVICES:
            url = config[f"{environment_prefix(service)}{environment_prefix(other)}URL"]
            assert url == f"http://{other}:{SERVICE_PORTS[other]}"
            assert SERVICE_PORTS[other] in [p["port"] for p in one(manifests, "Service", other)["spec"]["ports"]]


def test_probes_use_healthz_and_readyz(manifests: list[Manifest]) -> None:
    for owner in workloads(manifests):
        (container,) = pod_spec(owner)["containers"]
        for probe, path in (("startupProbe", "/healthz"), ("livenessProbe", "/healthz"), ("readinessProbe", "/readyz")):
            assert container[probe]["httpGet"] == {"path": path, "port": "http"}, f"{owner['metadata']['name']} {probe}"


def test_every_container_has_requests_and_limits(manifests: list[Manifest]) -> None:
    for owner in pod_owners(manifests):
        for container in pod_spec(owner)["containers"]:
            for bound in ("requests", "limits"):
                assert set(container["resources"][bound]) == {"cpu", "memory"}
            assert cpu(container["resources"]["requests"]["cpu"]) <= cpu(container["resources"]["limits"]["cpu"])


def test_pods_meet_the_restricted_pod_security_standard(manifests: list[Manifest]) -> None:
    """Non-root (the Dockerfile's user), read-only root filesystem with a writable /tmp, no capabilities, no
    Kubernetes API token, and no service-link variables (they would collide with settings, e.g. WALLET_PORT)."""
    for owner in pod_owners(manifests):
        spec = pod_spec(owner)
        assert spec["securityContext"] == {
            "runAsNonRoot": True,
            "runAsUser": 10001,
            "runAsGroup": 10001,
            "seccompProfile": {"type": "RuntimeDefault"},
        }
        assert spec["automountServiceAccountToken"] is False
        assert spec["enableServiceLinks"] is False
        assert {"name": "tmp", "emptyDir": {"sizeLimit": "64Mi"}} in spec["volumes"]
        for container in spec["containers"]:
            assert container["securityContext"] == {
                "allowPrivilegeEscalation": False,
                "readOnlyRootFilesystem": True,
                "capabilities": {"drop": ["ALL"]},
            }
            assert {"name": "tmp", "mountPath": "/tmp"} in container["volumeMounts"]


# -- table engine shards, autoscaling, disruption budgets ----------------------------------------------------
def test_table_engine_shards_have_stable_identities(manifests: list[Manifest]) -> None:
    engine = one(manifests, "StatefulSet", STATEFUL)
    headless = one(manifests, "Service", engine["spec"]["serviceName"])
    assert headless["spec"]["clusterIP"] == "None"
    assert selects(headless["spec"]["selector"], pod_labels(engine))
    env = {v["name"]: v for v in pod_spec(engine)["containers"][0]["env"]}
    assert env["TABLE_ENGINE_SHARD_NAME"]["valueFrom"] == {"fieldRef": {"fieldPath": "metadata.name"}}
    assert STATEFUL not in [h["spec"]["scaleTargetRef"]["name"] for h in of_kind(manifests, "HorizontalPodAutoscaler")]
    assert one(manifests, "PodDisruptionBudget", STATEFUL)["spec"] == {
        "maxUnavailable": 1,
        "selector": {"matchLabels": {NAME: STATEFUL, COMPONENT: "server"}},
    }


def test_services_addressing_tables_get_the_table_engine_replicas_as_shard_count(
    manifests: list[Manifest], table_addressing_services: tuple[str, ...]
) -> None:
    """Fewer shards than table-engine pods: the highest pods refuse to start. More: tables are routed to shards
    that do not exist. Each service has one pod template, so what it gets is what every one of its pods gets."""
    replicas = server(manifests, STATEFUL)["spec"]["replicas"]
    for service in table_addressing_services:
        (container,) = pod_spec(server(manifests, service))["containers"]
        count = environment_value(manifests, container, f"{environment_prefix(service)}TABLE_ENGINE_SHARDS")
        assert count == str(replicas), f"{service} routes tables over {count} shards; table-engine runs {replicas}"


def test_every_table_engine_pod_accepts_its_shard(manifests: list[Manifest]) -> None:
    """The service's own settings (not this test) decide whether pod table-engine-N may start with the count."""
    engine = server(manifests, STATEFUL)
    (container,) = pod_spec(engine)["containers"]
    count = environment_value(manifests, container, "TABLE_ENGINE_TABLE_ENGINE_SHARDS")
    for ordinal in range(engine["spec"]["replicas"]):
        settings = TableEngineSettings.model_validate(
            {"shard_name": f"{STATEFUL}-{ordinal}", "table_engine_shards": count}
        )
        assert settings.shard_index == ordinal


def test_the_shard_count_has_one_source(manifests: list[Manifest], table_addressing_services: tuple[str, ...]) -> None:
    """One ConfigMap key for every service, so that an overlay cannot change the count for some of them only."""
    for service in table_addressing_services:
        (container,) = pod_spec(server(manifests, service))["containers"]
        variables = {v["name"]: v for v in container["env"]}
        assert variables[f"{environment_prefix(service)}TABLE_ENGINE_SHARDS"]["valueFrom"] == {
            "configMapKeyRef": {"name": "table-engine-shards", "key": "count"}
        }


def test_autoscalers_own_the_stateless_services(manifests: list[Manifest]) -> None:
    autoscalers = of_kind(manifests, "HorizontalPodAutoscaler")
    assert sorted(h["spec"]["scaleTargetRef"]["name"] for h in autoscalers) == sorted(STATELESS)
    for autoscaler in autoscalers:
        assert autoscaler["apiVersion"] == "autoscaling/v2"
        target = autoscaler["spec"]["scaleTargetRef"]
        deployment = one(manifests, target["kind"], target["name"])
        assert "replicas" not in deployment["spec"], "a fixed count would fight the autoscaler on every apply"
        assert 2 <= autoscaler["spec"]["minReplicas"] < autoscaler["spec"]["maxReplicas"]


def test_disruption_budgets_select_one_workload_and_allow_a_drain(manifests: list[Manifest]) -> None:
    minimum = {
        h["spec"]["scaleTargetRef"]["name"]: h["spec"]["minReplicas"]
        for h in of_kind(manifests, "HorizontalPodAutoscaler")
    }
    for budget in of_kind(manifests, "PodDisruptionBudget"):
        name = budget["metadata"]["name"]
        assert [
            o["metadata"]["name"] for o in selected_owners(manifests, budget["spec"]["selector"]["matchLabels"])
        ] == [name]
        if name in minimum:
            assert budget["spec"]["minAvailable"] < minimum[name], f"{name}: the budget would block every drain"


def test_prod_runs_more_and_bigger_with_stricter_budgets(rendered: dict[str, list[Manifest]]) -> None:
    dev, prod = rendered["dev"], rendered["prod"]
    for service in STATELESS:
        assert (
            one(prod, "HorizontalPodAutoscaler", service)["spec"]["minReplicas"]
            > one(dev, "HorizontalPodAutoscaler", service)["spec"]["minReplicas"]
        )
        assert (
            one(prod, "PodDisruptionBudget", service)["spec"]["minAvailable"]
            > one(dev, "PodDisruptionBudget", service)["spec"]["minAvailable"]
        )
    for service in SERVICES:
        requests = [
            pod_spec(server(overlay, service))["containers"][0]["resources"]["requests"] for overlay in (dev, prod)
        ]
        assert cpu(requests[1]["cpu"]) > cpu(requests[0]["cpu"])
    assert (
        one(prod, "StatefulSet", STATEFUL)["spec"]["replicas"] > one(dev, "StatefulSet", STATEFUL)["spec"]["replicas"]
    )
    assert one(prod, "RabbitmqCluster", "rabbitmq")["spec"]["replicas"] == 3


# -- dependencies: secrets, PostgreSQL, RabbitMQ -------------------------------------------------------------
def test_dev_secret_references_resolve(rendered: dict[str, list[Manifest]]) -> None:
    provided = {s["metadata"]["name"]: set(s["stringData"]) for s in of_kind(rendered["dev"], "Secret")}
    provided |= OPERATOR_SECRETS | GENERATED_SECRETS
    for name, key in secret_references(rendered["dev"]):
        assert key in provided.get(name, set()), f"secret {name} has no key {key}"


def test_prod_commits_no_secret_and_needs_only_those_dev_shows(rendered: dict[str, list[Manifest]]) -> None:
    """Production Secrets are created outside the repository, with the names and keys dev has placeholders for."""
    assert of_kind(rendered["prod"], "Secret") == []
    assert set(secret_references(rendered["prod"])) == set(secret_references(rendered["dev"]))


def test_dev_secrets_are_placeholders_matching_the_local_databases(rendered: dict[str, list[Manifest]]) -> None:
    """The dev DSNs use the role = password = database convention of deploy/docker/postgres-init."""
    for service in SERVICES:
        database = service.replace("-", "_")
        url = one(rendered["dev"], "Secret", f"{service}-database")["stringData"]["url"]
        assert url == f"postgresql+asyncpg://{database}:{database}@postgres:5432/{database}"


def test_no_overlay_commits_a_value_for_a_checked_secret(rendered: dict[str, list[Manifest]]) -> None:
    """Not even dev: a committed value is a published one, which a service on RabbitMQ refuses (and should)."""
    for manifests in rendered.values():
        committed = {s["metadata"]["name"] for s in of_kind(manifests, "Secret")}
        assert not committed & set(GENERATED_SECRETS)
        for owner in pod_owners(manifests):
            checked = secret_variables(pod_labels(owner)[NAME])
            for variable in pod_spec(owner)["containers"][0].get("env", []):
                if variable["name"] in checked:
                    assert variable["valueFrom"]["secretKeyRef"]["name"] in GENERATED_SECRETS


def test_postgres_is_an_external_name_each_overlay_sets(manifests: list[Manifest]) -> None:
    alias = one(manifests, "Service", "postgres")["spec"]
    assert alias["type"] == "ExternalName"
    base = yaml.safe_load((K8S / "base" / "postgres.yaml").read_text())["spec"]["externalName"]
    assert alias["externalName"] != base


def test_rabbitmq_cluster_backs_the_bus_url_secret(manifests: list[Manifest]) -> None:
    cluster = one(manifests, "RabbitmqCluster", "rabbitmq")
    assert f"{cluster['metadata']['name']}-default-user" in OPERATOR_SECRETS
    assert {"rabbitmq_shovel", "rabbitmq_shovel_management"} <= set(cluster["spec"]["rabbitmq"]["additionalPlugins"])
    assert "prometheus.return_per_object_metrics = true" in cluster["spec"]["rabbitmq"]["additionalConfig"]
    assert cluster["spec"]["service"]["type"] == "ClusterIP"


# -- exposure, network policies, monitoring ------------------------------------------------------------------
def test_only_the_gateway_is_exposed(manifests: list[Manifest]) -> None:
    assert {s["spec"].get("type", "ClusterIP") for s in of_kind(manifests, "Service")} <= {"ClusterIP", "ExternalName"}
    (ingress,) = of_kind(manifests, "Ingress")
    backends = [p["backend"]["service"] for rule in ingress["spec"]["rules"] for p in rule["http"]["paths"]]
    assert backends == [{"name": "gateway", "port": {"name": "http"}}]
    assert [p["name"] for p in one(manifests, "Service", "gateway")["spec"]["ports"]] == ["http"]


def test_ingress_keeps_websocket_streams_open(manifests: list[Manifest]) -> None:
    (ingress,) = of_kind(manifests, "Ingress")
    annotations = ingress["metadata"]["annotations"]
    for timeout in ("proxy-read-timeout", "proxy-send-timeout"):
        assert int(annotations[f"nginx.ingress.kubernetes.io/{timeout}"]) >= 3600


def test_network_policies_deny_by_default_and_admit_outsiders_only_to_the_gateway(manifests: list[Manifest]) -> None:
    policies = {p["metadata"]["name"]: p["spec"] for p in of_kind(manifests, "NetworkPolicy")}
    deny = policies["platform-default-deny"]
    assert deny["podSelector"] == {"matchLabels": {"app.kubernetes.io/part-of": "platform"}}
    assert deny["policyTypes"] == ["Ingress", "Egress"] and "ingress" not in deny and "egress" not in deny
    for owner in pod_owners(manifests):
        assert selects(deny["podSelector"]["matchLabels"], pod_labels(owner))
    from_ingress_controller = [
        spec
        for spec in policies.values()
        for rule in spec.get("ingress", [])
        for peer in rule.get("from", [])
        if peer.get("namespaceSelector", {}).get("matchLabels", {}).get("kubernetes.io/metadata.name")
        == "ingress-nginx"
    ]
    assert [spec["podSelector"]["matchLabels"] for spec in from_ingress_controller] == [
        {NAME: "gateway", COMPONENT: "server"}
    ]


def test_network_policies_open_the_ports_the_services_use(manifests: list[Manifest]) -> None:
    policies = {p["metadata"]["name"]: p["spec"] for p in of_kind(manifests, "NetworkPolicy")}
    assert policies["platform-allow-broker"]["egress"][0]["ports"] == [{"protocol": "TCP", "port": 5672}]
    assert policies["platform-allow-database"]["egress"][0]["ports"] == [{"protocol": "TCP", "port": 5432}]
    internal = policies["platform-allow-service-to-service"]
    assert internal["ingress"][0]["ports"] == internal["egress"][0]["ports"] == [{"protocol": "TCP", "port": "http"}]


def test_monitors_scrape_metrics_of_every_service(manifests: list[Manifest]) -> None:
    monitor = one(manifests, "PodMonitor", "platform")["spec"]
    assert monitor["podMetricsEndpoints"] == [{"port": "http", "path": "/metrics", "interval": "15s"}]
    scraped = [o["metadata"]["name"] for o in selected_owners(manifests, monitor["selector"]["matchLabels"])]
    assert sorted(scraped) == sorted(SERVICES)
    assert monitor["jobLabel"] == NAME, "alerts name services by job = the app.kubernetes.io/name label"


# -- deployment order ----------------------------------------------------------------------------------------
# Logs each call; keeps what `create -f -` reads on stdin; `get secret` fails while SECRETS_MISSING is 1.
FAKE_KUBECTL = """#!/usr/bin/env bash
echo "$*" >> "$KUBECTL_LOG"
case "$1 $*" in
  kustomize*) echo "kind: ConfigMap" ;;
  *"wait --for=condition=complete"*) exit "$MIGRATIONS_FAIL" ;;
  *" get secret "*) exit "$SECRETS_MISSING" ;;
  *" create -f -"*) cat >> "$KUBECTL_CREATED"; echo "---" >> "$KUBECTL_CREATED" ;;
esac
"""


def run_deploy(
    tmp_path: Path, *, migrations_fail: bool = False, overlay: str = "prod", secrets_missing: bool = False
) -> tuple[int, list[str]]:
    kubectl = tmp_path / "kubectl"
    kubectl.write_text(FAKE_KUBECTL)
    kubectl.chmod(0o755)
    log = tmp_path / "calls"
    result = subprocess.run(
        ["bash", str(K8S / "deploy.sh"), overlay],
        env={
            **os.environ,
            "KUBECTL": str(kubectl),
            "KUBECTL_LOG": str(log),
            "KUBECTL_CREATED": str(tmp_path / "created.yaml"),
            "MIGRATIONS_FAIL": str(int(migrations_fail)),
            "SECRETS_MISSING": str(int(secrets_missing)),
        },
        capture_output=True,
        text=True,
        cwd=ROOT,
    )
    return result.returncode, log.read_text().splitlines()


def verb(call: str) -> str:
    return call.split()[2] if call.startswith("-n") else call.split()[0]


def test_deploy_script_migrates_before_rolling_out(tmp_path: Path) -> None:
    code, calls = run_deploy(tmp_path, migrations_fail=False)
    assert code == 0
    calls = [call for call in calls if " secret " not in call]  # their checks: the tests below
    verbs = [verb(call) for call in calls]
    assert verbs[:5] == ["kustomize", "delete", "apply", "wait", "apply"]
    assert "-l app.kubernetes.io/component=migration" in calls[1] and "-n platform" in calls[1]
    assert calls[2].endswith("-l app.kubernetes.io/component!=server")
    assert "-l" not in calls[4].split()
    assert sorted(call.split()[-2] for call in calls[5:]) == sorted(
        f"{'statefulset' if s == STATEFUL else 'deployment'}/{s}" for s in SERVICES
    )


def test_deploy_script_stops_when_a_migration_fails(tmp_path: Path) -> None:
    code, calls = run_deploy(tmp_path, migrations_fail=True)
    assert code == 1
    assert not [call for call in calls if call.startswith("apply") and "-l" not in call.split()]
    assert not [call for call in calls if "rollout" in call]


def test_deploy_script_makes_random_checked_secrets_for_dev_once(tmp_path: Path) -> None:
    """Into the namespace the first apply made, before the servers roll out; given on stdin, never as arguments."""
    code, calls = run_deploy(tmp_path, overlay="dev", secrets_missing=True)
    assert code == 0
    verbs = [verb(call) for call in calls]
    created = [i for i, call in enumerate(calls) if verb(call) == "create"]
    assert verbs.index("apply") < created[0] and created[-1] < len(verbs) - 1 - verbs[::-1].index("apply")
    assert all(calls[i] == "-n platform-dev create -f -" for i in created)
    documents = [d for d in yaml.safe_load_all((tmp_path / "created.yaml").read_text()) if d]
    assert {d["metadata"]["name"]: set(d["stringData"]) for d in documents} == GENERATED_SECRETS
    values = [value for d in documents for value in d["stringData"].values()]
    published = {value for s in SERVICES for dev in settings_class(s).development_values.values() for value in dev}
    assert len(set(values)) == len(values) and not set(values) & published
    assert all(len(value) >= 32 and value not in "\n".join(calls) for value in values)
    for document in documents:
        validate(document)

    again = tmp_path / "again"
    again.mkdir()
    code, calls = run_deploy(again, overlay="dev")
    assert code == 0 and not [call for call in calls if verb(call) == "create"], "existing Secrets are kept"


def test_deploy_script_stops_when_a_prod_secret_is_missing(tmp_path: Path) -> None:
    code, calls = run_deploy(tmp_path, secrets_missing=True)
    assert code == 1
    assert not [call for call in calls if verb(call) == "create"], "prod values come from the operator's store"
    assert not [call for call in calls if call.startswith("apply") and "-l" not in call.split()]
