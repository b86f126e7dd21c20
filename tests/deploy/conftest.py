"""Fixtures for the deployment tests: docker-compose.yml, and deploy/k8s rendered by a small Kustomize renderer.
(Test modules cannot import this file under `--import-mode=importlib`: what they share comes as fixtures.)

The renderer implements exactly the Kustomize features deploy/k8s uses, and refuses any other: `resources`
(files and directories), `namespace`, `images`, `replicas`, and `patches` that are JSON 6902 operations with a
`target` (kind, and a name that is a regular expression, as in Kustomize). Kustomize itself is not needed to run
the tests; where `kubectl` (which embeds Kustomize) is installed, test_k8s.py checks that both render the same.
"""

from __future__ import annotations

import copy
import re
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
import yaml

ROOT = Path(__file__).resolve().parents[2]
K8S = ROOT / "deploy" / "k8s"
OVERLAYS = ("dev", "prod")

Manifest = dict[str, Any]

SUPPORTED_FIELDS = {"apiVersion", "kind", "resources", "namespace", "images", "replicas", "patches"}
CLUSTER_SCOPED_KINDS = {"Namespace"}
SCALABLE_KINDS = {"Deployment", "StatefulSet"}


def load_yaml_documents(path: Path) -> list[Manifest]:
    return [doc for doc in yaml.safe_load_all(path.read_text()) if doc is not None]


def render(directory: Path) -> list[Manifest]:
    """The manifests `kustomize build directory` produces (for the features listed in the module docstring)."""
    kustomization = yaml.safe_load((directory / "kustomization.yaml").read_text())
    unsupported = set(kustomization) - SUPPORTED_FIELDS
    if unsupported:
        raise NotImplementedError(f"{directory}: the test renderer does not implement {sorted(unsupported)}")
    manifests: list[Manifest] = []
    for entry in kustomization.get("resources", []):
        path = directory / entry
        manifests += render(path) if path.is_dir() else load_yaml_documents(path)
    for patch in kustomization.get("patches", []):
        operations = yaml.safe_load(patch["patch"] if "patch" in patch else (directory / patch["path"]).read_text())
        targets = [m for m in manifests if _selected(m, patch["target"])]
        if not targets:
            raise ValueError(f"{directory}: patch target {patch['target']} matches nothing")
        for manifest in targets:
            _apply_json6902(manifest, operations)
    if "namespace" in kustomization:
        for manifest in manifests:
            if manifest["kind"] not in CLUSTER_SCOPED_KINDS:
                manifest["metadata"]["namespace"] = kustomization["namespace"]
    for image in kustomization.get("images", []):
        for container in _pod_containers(manifests):
            name, _, tag = container["image"].partition(":")
            if name == image["name"]:
                new_name, new_tag = image.get("newName", name), image.get("newTag", tag)
                container["image"] = f"{new_name}:{new_tag}" if new_tag else new_name
    for replicas in kustomization.get("replicas", []):
        scaled = [m for m in manifests if m["kind"] in SCALABLE_KINDS and m["metadata"]["name"] == replicas["name"]]
        if not scaled:
            raise ValueError(f"{directory}: replicas for {replicas['name']!r} matches no workload")
        for manifest in scaled:
            manifest["spec"]["replicas"] = replicas["count"]
    return manifests


def _selected(manifest: Manifest, target: dict[str, str]) -> bool:
    unsupported = set(target) - {"kind", "name"}
    if unsupported:
        raise NotImplementedError(f"the test renderer does not select patch targets by {sorted(unsupported)}")
    return manifest["kind"] == target["kind"] and (
        "name" not in target or re.fullmatch(target["name"], manifest["metadata"]["name"]) is not None
    )


def _pod_containers(manifests: list[Manifest]) -> Iterator[dict[str, Any]]:
    for manifest in manifests:
        pod = manifest.get("spec", {}).get("template", {}).get("spec", {})
        yield from pod.get("initContainers", [])
        yield from pod.get("containers", [])


def _apply_json6902(document: Manifest, operations: list[dict[str, Any]]) -> None:
    for operation in operations:
        *parents, last = [
            part.replace("~1", "/").replace("~0", "~") for part in operation["path"].lstrip("/").split("/")
        ]
        node: Any = document
        for part in parents:
            node = node[int(part)] if isinstance(node, list) else node[part]
        op = operation["op"]
        value = copy.deepcopy(operation.get("value"))
        if isinstance(node, list):
            index = len(node) if last == "-" else int(last)
            if op == "add":
                node.insert(index, value)
            elif op == "replace":
                node[index] = value
            elif op == "remove":
                del node[index]
            else:
                raise NotImplementedError(op)
        elif op == "replace" and last not in node:
            raise KeyError(f"replace of a missing member {operation['path']}")
        elif op in ("add", "replace"):
            node[last] = value
        elif op == "remove":
            del node[last]
        else:
            raise NotImplementedError(op)


@pytest.fixture(scope="session")
def rendered() -> dict[str, list[Manifest]]:
    """overlay name -> its rendered manifests."""
    return {overlay: render(K8S / "overlays" / overlay) for overlay in OVERLAYS}


@pytest.fixture(scope="session")
def render_kustomization() -> Callable[[Path], list[Manifest]]:
    return render


@pytest.fixture(scope="session")
def table_addressing_services() -> tuple[str, ...]:
    """The services that must know the table-engine shard count (`<PREFIX>TABLE_ENGINE_SHARDS`): those that route
    commands to a table's shard, crc32(table id) % count, and the shards themselves."""
    return ("gateway", "tournament-director", "table-engine")


@pytest.fixture(scope="session")
def compose() -> dict[str, Any]:
    document: dict[str, Any] = yaml.safe_load((ROOT / "docker-compose.yml").read_text())
    return document
