"""scripts/run-distributed.sh (`make run-distributed`): every service on RabbitMQ gets secrets made for the run —
one internal token for all, a signing key for the gateway — and a bootstrap administrator password made once and
kept, since the administrator is created with the first run's password. `psql` and `uv` are fakes here: the
script's calls are recorded, the services not started."""

from __future__ import annotations

import os
import stat
import subprocess
from pathlib import Path

from platform_kit.settings import ServiceSettings
from platform_runner.services import SERVICES, settings_class

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = ROOT / "scripts" / "run-distributed.sh"
FAKE_PSQL = "#!/usr/bin/env bash\necho 1\n"
# A service's environment, one file per service; each waits for the others before it exits, so that the script's
# clean-up (which kills the rest once one exits) cannot stop one before it has written its file.
FAKE_UV = """#!/usr/bin/env bash
env > "$SERVICE_ENVIRONMENTS/${@: -1}.env"
for _ in $(seq 100); do
  [[ $(ls "$SERVICE_ENVIRONMENTS" | wc -l) -ge 6 ]] && exit 0
  sleep 0.1
done
"""


def fake(directory: Path, name: str, text: str) -> None:
    path = directory / name
    path.write_text(text)
    path.chmod(0o755)


def run(tmp_path: Path, run_name: str, **given: str) -> dict[str, dict[str, str]]:
    """One run of the script; the environment each service was started with."""
    bin_dir, environments = tmp_path / "bin", tmp_path / run_name
    bin_dir.mkdir(exist_ok=True)
    environments.mkdir()
    fake(bin_dir, "psql", FAKE_PSQL)
    fake(bin_dir, "uv", FAKE_UV)
    outside = {k: v for k, v in os.environ.items() if not k.startswith(("GATEWAY_", "PLATFORM_"))}
    env = {
        **outside,
        "PATH": f"{bin_dir}:{os.environ['PATH']}",
        "SERVICE_ENVIRONMENTS": str(environments),
        "DATA_DIR": str(tmp_path / "data"),
        **given,
    }
    subprocess.run(["bash", str(SCRIPT)], env=env, check=True, capture_output=True, text=True, timeout=60)
    found = {}
    for path in environments.iterdir():
        lines = path.read_text().splitlines()
        found[path.stem] = dict(line.split("=", 1) for line in lines if "=" in line)
    return found


def service_settings(service: str, env: dict[str, str]) -> ServiceSettings:
    prefix: str = settings_class(service).model_config["env_prefix"]
    return settings_class(service).model_validate(
        {name[len(prefix) :].lower(): value for name, value in env.items() if name.startswith(prefix)}
    )


def test_each_run_makes_secrets_no_service_refuses(tmp_path: Path) -> None:
    first = run(tmp_path, "first")
    assert sorted(first) == sorted(SERVICES)
    for service, env in first.items():
        settings = service_settings(service, env)
        assert not settings.standalone and settings.development_secrets() == [], service
    tokens = {first[s][f"{settings_class(s).model_config['env_prefix']}INTERNAL_TOKEN"] for s in SERVICES}
    assert len(tokens) == 1, "one internal token for every service"

    second = run(tmp_path, "second")
    gateway, again = first["gateway"], second["gateway"]
    assert again["GATEWAY_INTERNAL_TOKEN"] != gateway["GATEWAY_INTERNAL_TOKEN"]
    assert again["GATEWAY_JWT_SECRET"] != gateway["GATEWAY_JWT_SECRET"]
    assert again["GATEWAY_ADMIN_PASSWORD"] == gateway["GATEWAY_ADMIN_PASSWORD"], "the administrator exists already"
    kept = tmp_path / "data" / "distributed-admin-password"
    assert kept.read_text().strip() == gateway["GATEWAY_ADMIN_PASSWORD"]
    assert stat.S_IMODE(kept.stat().st_mode) == 0o600


def test_given_secrets_are_used(tmp_path: Path) -> None:
    given = {
        "PLATFORM_INTERNAL_TOKEN": "an internal token the operator chose",
        "GATEWAY_JWT_SECRET": "a signing key the operator chose, long enough",
        "GATEWAY_ADMIN_PASSWORD": "a password the operator chose",
    }
    gateway = run(tmp_path, "given", **given)["gateway"]
    assert gateway["GATEWAY_INTERNAL_TOKEN"] == given["PLATFORM_INTERNAL_TOKEN"]
    assert gateway["GATEWAY_JWT_SECRET"] == given["GATEWAY_JWT_SECRET"]
    assert gateway["GATEWAY_ADMIN_PASSWORD"] == given["GATEWAY_ADMIN_PASSWORD"]
    assert not (tmp_path / "data" / "distributed-admin-password").exists()
