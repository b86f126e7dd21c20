"""The PrometheusRule in deploy/k8s/base/alerts.yaml: the alerts operations asked for, each with a runbook in
docs/operations.md; checked and exercised with promtool where it is installed (Debian package `prometheus`)."""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest
import yaml
from platform_runner.services import SERVICES

ROOT = Path(__file__).resolve().parents[2]
RULES = ROOT / "deploy" / "k8s" / "base" / "alerts.yaml"
OPERATIONS = ROOT / "docs" / "operations.md"
# alert -> a metric its expression must read
REQUIRED = {
    "PlatformServiceDown": "up",
    "PlatformNotReady": "kube_pod_status_ready",
    "PlatformHigh5xxRate": "http_requests_total",
    "PlatformHighLatencyP99": "http_request_duration_seconds_bucket",
    "OutboxBacklogGrowing": "outbox_backlog",
    "DeadLettersPresent": "rabbitmq_queue_messages",
    "LedgerReconciliationBroken": "wallet_reconciliation_imbalance",
    "ConsumerLagHigh": "rabbitmq_queue_messages_ready",
}


def groups() -> list[dict[str, Any]]:
    rule: dict[str, Any] = yaml.safe_load(RULES.read_text())
    return list(rule["spec"]["groups"])


def alerts() -> dict[str, dict[str, Any]]:
    return {rule["alert"]: rule for group in groups() for rule in group["rules"] if "alert" in rule}


def github_anchor(heading: str) -> str:
    return re.sub(r"[^\w\- ]", "", heading.strip().lower()).replace(" ", "-")


def promtool() -> str:
    path = shutil.which("promtool")
    if path is None:
        pytest.skip("promtool is not installed (apt-get install prometheus): alert expressions not evaluated")
    return path


def test_the_required_alerts_exist_and_read_their_metric() -> None:
    found = alerts()
    assert set(found) == set(REQUIRED)
    for name, metric in REQUIRED.items():
        assert re.search(rf"\b{metric}\b", found[name]["expr"]), f"{name} does not read {metric}"
        assert found[name]["labels"]["severity"] in ("critical", "warning")


def test_every_alert_has_a_runbook_section() -> None:
    anchors = {github_anchor(line.lstrip("#")) for line in OPERATIONS.read_text().splitlines() if line.startswith("#")}
    for name, rule in alerts().items():
        document, _, anchor = rule["annotations"]["runbook"].partition("#")
        assert document == str(OPERATIONS.relative_to(ROOT))
        assert anchor == name.lower() and anchor in anchors, f"no section '{name}' in {document}"


def test_service_alerts_name_exactly_the_six_services() -> None:
    expression = alerts()["PlatformServiceDown"]["expr"]
    (listed,) = re.findall(r'job=~"([^"]+)"', expression)
    assert listed.split("|") == list(SERVICES)
    assert sorted(re.findall(r'absent\(up\{job="([^"]+)"\}\)', expression)) == sorted(SERVICES)


def test_rules_pass_promtool_check(tmp_path: Path) -> None:
    rules = tmp_path / "rules.yaml"
    rules.write_text(yaml.safe_dump({"groups": groups()}))
    subprocess.run([promtool(), "check", "rules", str(rules)], check=True, capture_output=True)


# Series over 30 minutes, one sample a minute, and the alerts they must (and must not) fire.
UNIT_TESTS = {
    "evaluation_interval": "1m",
    "tests": [
        {
            "interval": "1m",
            "input_series": [
                {"series": 'wallet_reconciliation_imbalance{job="wallet", currency="EUR"}', "values": "0 0 25x10"},
                {"series": 'wallet_reconciliation_imbalance{job="wallet", currency="USD"}', "values": "0x12"},
                # 5xx only from /readyz (a dependency down): not an error rate of the API.
                {"series": 'http_requests_total{job="rating", route="/readyz", status="503"}', "values": "0+60x30"},
                {"series": 'http_requests_total{job="rating", route="/ratings", status="200"}', "values": "0+60x30"},
                # The wallet fails 10% of its API calls.
                {"series": 'http_requests_total{job="wallet", route="/accounts", status="500"}', "values": "0+6x30"},
                {"series": 'http_requests_total{job="wallet", route="/accounts", status="200"}', "values": "0+54x30"},
                {"series": 'rabbitmq_queue_messages{queue="wallet.dead", vhost="/"}', "values": "0 0 3x10"},
                {"series": 'rabbitmq_queue_messages{queue="rating.dead", vhost="/"}', "values": "0x12"},
                {"series": 'up{job="gateway", pod="gateway-1"}', "values": "1 1 0x10"},
                {"series": 'up{job="tournament-director"}', "values": "1x30"},
                {"series": 'up{job="table-engine"}', "values": "1x30"},
                {"series": 'up{job="wallet"}', "values": "1x30"},
                {"series": 'up{job="rating"}', "values": "1x30"},
                # No totalizator series at all: every pod gone.
            ],
            "alert_rule_test": [
                {
                    "eval_time": "5m",
                    "alertname": "LedgerReconciliationBroken",
                    "exp_alerts": [
                        {
                            "exp_labels": {"severity": "critical", "currency": "EUR"},
                            "exp_annotations": {
                                "summary": "The wallet ledger does not balance in EUR (imbalance 25)",
                                "runbook": "docs/operations.md#ledgerreconciliationbroken",
                            },
                        }
                    ],
                },
                {
                    "eval_time": "20m",
                    "alertname": "PlatformHigh5xxRate",
                    "exp_alerts": [
                        {
                            "exp_labels": {"severity": "critical", "job": "wallet"},
                            "exp_annotations": {
                                "summary": "wallet: 10% of requests fail with 5xx",
                                "runbook": "docs/operations.md#platformhigh5xxrate",
                            },
                        }
                    ],
                },
                {
                    "eval_time": "5m",
                    "alertname": "DeadLettersPresent",
                    "exp_alerts": [
                        {
                            "exp_labels": {"severity": "warning", "queue": "wallet.dead"},
                            "exp_annotations": {
                                "summary": "3 dead letters in wallet.dead",
                                "runbook": "docs/operations.md#deadletterspresent",
                            },
                        }
                    ],
                },
                {
                    "eval_time": "6m",
                    "alertname": "PlatformServiceDown",
                    "exp_alerts": [
                        {
                            "exp_labels": {"severity": "critical", "job": "gateway", "pod": "gateway-1"},
                            "exp_annotations": {
                                "summary": "gateway is down (pod gateway-1)",
                                "runbook": "docs/operations.md#platformservicedown",
                            },
                        },
                        {
                            "exp_labels": {"severity": "critical", "job": "totalizator"},
                            "exp_annotations": {
                                "summary": "totalizator is down",
                                "runbook": "docs/operations.md#platformservicedown",
                            },
                        },
                    ],
                },
            ],
        }
    ],
}


def test_alerts_fire_on_the_conditions_they_describe(tmp_path: Path) -> None:
    binary = promtool()
    (tmp_path / "rules.yaml").write_text(yaml.safe_dump({"groups": groups()}))
    (tmp_path / "tests.yaml").write_text(yaml.safe_dump({"rule_files": ["rules.yaml"], **UNIT_TESTS}))
    result = subprocess.run([binary, "test", "rules", "tests.yaml"], cwd=tmp_path, capture_output=True, text=True)
    assert result.returncode == 0, result.stdout + result.stderr
