"""The committed contracts (OpenAPI, AsyncAPI, event schemas) and docs/configuration.md match the code."""

from pathlib import Path

from platform_runner.contracts import drift, expected_files

CONTRACTS = Path(__file__).resolve().parents[3] / "contracts"


def test_committed_contracts_match_the_code() -> None:
    assert drift(CONTRACTS) == [], "contracts/ drifted from the code: run `make contracts` and commit"


def test_every_service_has_an_openapi_document_with_operations_endpoints() -> None:
    files = expected_files()
    for service in ("gateway", "tournament-director", "table-engine", "wallet", "rating", "totalizator"):
        paths = __import__("json").loads(files[f"openapi/{service}.json"])["paths"]
        assert {"/healthz", "/readyz", "/metrics"} <= set(paths)
