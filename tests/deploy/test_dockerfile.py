"""The Dockerfile (read, not built: no Docker daemon in the tests), its .dockerignore and its health check."""

from __future__ import annotations

import importlib.util
import re
import threading
import tomllib
from collections.abc import Iterator
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, HTTPServer
from pathlib import Path
from types import ModuleType

import pytest
import yaml

ROOT = Path(__file__).resolve().parents[2]
HEALTHCHECK_SCRIPT = ROOT / "deploy" / "docker" / "healthcheck.py"
RUNTIME_UID = 10001


@dataclass
class Stage:
    base: str
    name: str
    instructions: list[tuple[str, str]] = field(default_factory=list)

    def arguments(self, instruction: str) -> list[str]:
        return [args for name, args in self.instructions if name == instruction]


def dockerfile() -> tuple[dict[str, str], list[Stage]]:
    """The global ARG defaults and the stages, each with its instructions (continuation lines joined)."""
    text = re.sub(r"\\\n\s*", " ", (ROOT / "Dockerfile").read_text())
    global_args: dict[str, str] = {}
    stages: list[Stage] = []
    for line in text.splitlines():
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        instruction, _, arguments = line.strip().partition(" ")
        if instruction == "FROM":
            base, _, name = arguments.partition(" AS ")
            stages.append(Stage(base, name))
        elif stages:
            stages[-1].instructions.append((instruction, arguments))
        elif instruction == "ARG":
            key, _, default = arguments.partition("=")
            global_args[key] = default
    return global_args, stages


def stage(name: str) -> Stage:
    (found,) = [s for s in dockerfile()[1] if s.name == name]
    return found


def dockerignore_excludes(path: str) -> bool:
    """Docker's rule: the last pattern matching the path or one of its parent directories decides."""
    excluded = False
    for raw in (ROOT / ".dockerignore").read_text().splitlines():
        pattern = raw.strip()
        if not pattern or pattern.startswith("#"):
            continue
        negated = pattern.startswith("!")
        regex = _pattern_regex(pattern.lstrip("!").rstrip("/"))
        parts = path.split("/")
        if any(regex.fullmatch("/".join(parts[:end])) for end in range(1, len(parts) + 1)):
            excluded = not negated
    return excluded


def _pattern_regex(pattern: str) -> re.Pattern[str]:
    regex = ""
    for token in re.split(r"(\*\*/|\*\*|\*|\?)", pattern):
        regex += {"**/": "(.*/)?", "**": ".*", "*": "[^/]*", "?": "[^/]"}.get(token, re.escape(token))
    return re.compile(regex)


def test_every_stage_builds_on_python_3_11_slim() -> None:
    global_args, stages = dockerfile()
    assert global_args["PYTHON_IMAGE"].startswith("python:3.11-slim")
    assert [s.base for s in stages] == ["${PYTHON_IMAGE}", "${PYTHON_IMAGE}"]
    assert [s.name for s in stages] == ["builder", "runtime"]


def test_builder_installs_the_locked_environment_without_dev_dependencies() -> None:
    syncs = [run for run in stage("builder").arguments("RUN") if "uv sync" in run]
    assert len(syncs) == 2
    assert all("uv sync --frozen --no-dev" in run for run in syncs)


def test_dependency_layer_copies_every_workspace_member() -> None:
    """Before the first `uv sync`, every member's pyproject.toml is in place (a new service must be added here)."""
    workspace = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["uv"]["workspace"]["members"]
    members = sorted(str(p.parent.relative_to(ROOT)) for glob in workspace for p in ROOT.glob(f"{glob}/pyproject.toml"))
    builder = stage("builder").instructions
    first_sync = next(i for i, (name, args) in enumerate(builder) if name == "RUN" and "uv sync" in args)
    copied = [args for name, args in builder[:first_sync] if name == "COPY"]
    assert sorted(c.split()[0].removesuffix("/pyproject.toml") for c in copied if "/pyproject.toml" in c) == members
    assert "pyproject.toml uv.lock ./" in copied


def test_runtime_stage_runs_as_the_non_root_user_kubernetes_expects() -> None:
    runtime = stage("runtime")
    assert runtime.arguments("USER") == [f"{RUNTIME_UID}:{RUNTIME_UID}"]
    assert any(f"--uid {RUNTIME_UID}" in run for run in runtime.arguments("RUN"))
    wallet = yaml.safe_load_all((ROOT / "deploy" / "k8s" / "base" / "wallet.yaml").read_text())
    deployment = next(doc for doc in wallet if doc["kind"] == "Deployment")
    assert deployment["spec"]["template"]["spec"]["securityContext"]["runAsUser"] == RUNTIME_UID


def test_runtime_stage_carries_no_build_tools() -> None:
    runtime = stage("runtime")
    assert not [run for run in runtime.arguments("RUN") if "pip" in run or "uv " in run]
    assert "--from=builder /app /app" in runtime.arguments("COPY")


def test_image_runs_the_platform_command_with_a_health_check() -> None:
    runtime = stage("runtime")
    assert runtime.arguments("ENTRYPOINT") == ['["platform"]']
    runner = tomllib.loads((ROOT / "libs" / "platform-runner" / "pyproject.toml").read_text())
    assert "platform" in runner["project"]["scripts"]
    (healthcheck,) = runtime.arguments("HEALTHCHECK")
    assert healthcheck.endswith('CMD ["python", "/app/healthcheck.py", "/healthz"]')
    assert f"{HEALTHCHECK_SCRIPT.relative_to(ROOT)} /app/healthcheck.py" in runtime.arguments("COPY")


def test_build_context_holds_what_the_image_copies_and_nothing_else() -> None:
    sources = [
        source
        for s in dockerfile()[1]
        for args in s.arguments("COPY")
        if not args.startswith("--from")
        for source in args.split()[:-1]
    ]
    for source in sources:
        assert (ROOT / source).exists(), source
        assert not dockerignore_excludes(source), f"{source} is copied but .dockerignore leaves it out"
    assert not dockerignore_excludes("services/wallet/migrations/versions/0001_messaging.py")
    for left_out in (
        ".venv/bin/python",
        "data/wallet.db",
        "services/wallet/tests/test_x.py",
        "bench/bench_bus.py",
        ".git/HEAD",
    ):
        assert dockerignore_excludes(left_out), left_out


# -- the health check script ---------------------------------------------------------------------------------
def load_healthcheck() -> ModuleType:
    spec = importlib.util.spec_from_file_location("platform_healthcheck", HEALTHCHECK_SCRIPT)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.mark.parametrize(
    ("argv", "service"),
    [
        (["/app/.venv/bin/python", "/app/.venv/bin/platform", "serve", "wallet"], "wallet"),
        (["/sbin/docker-init", "--", "platform", "serve", "table-engine"], "table-engine"),
        (["/app/.venv/bin/python", "/app/.venv/bin/platform", "migrate", "wallet"], None),
        (["platform", "--help"], None),
        (["python", "serve", "wallet"], None),
    ],
)
def test_healthcheck_finds_the_service_in_the_main_command(argv: list[str], service: str | None) -> None:
    assert load_healthcheck().served_service(argv) == service


class _Probed(BaseHTTPRequestHandler):
    def do_GET(self) -> None:
        self.send_response(200 if self.path == "/healthz" else 503)
        self.end_headers()

    def log_message(self, *_: object) -> None:
        pass


@pytest.fixture
def wallet_server(monkeypatch: pytest.MonkeyPatch) -> Iterator[HTTPServer]:
    server = HTTPServer(("127.0.0.1", 0), _Probed)
    monkeypatch.setenv("WALLET_PORT", str(server.server_address[1]))
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield server
    server.shutdown()
    server.server_close()


def test_healthcheck_probes_the_port_from_the_service_settings(wallet_server: HTTPServer) -> None:
    healthcheck = load_healthcheck()
    assert healthcheck.probe("wallet", "/healthz") is True
    assert healthcheck.probe("wallet", "/readyz") is False
    wallet_server.shutdown()
    wallet_server.server_close()
    assert healthcheck.probe("wallet", "/healthz") is False
