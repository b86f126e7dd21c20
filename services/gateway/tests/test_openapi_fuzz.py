"""Schemathesis against the gateway's own OpenAPI document, in process: generated requests (valid and otherwise)
to every operation, anonymous, as a player and as an administrator, get the answers the document declares —
status code, content type, headers and body schema — and never a server error.

The other services answer from their own contracts (`contract_fakes`): every relayed call gets a success its
owning service declares, so the check holds the gateway's document to what the services really answer. A small
number of examples per operation keeps it to about a minute.
"""

from collections.abc import Iterator
from typing import Any

import httpx
import pytest
import schemathesis
from contract_fakes import ContractFakes
from gateway.app import create_app
from gateway_test_support import PASSWORD, fast_settings
from hypothesis import HealthCheck, given, settings
from hypothesis.errors import Unsatisfiable
from schemathesis import GenerationMode
from schemathesis.checks import (
    content_type_conformance,
    not_a_server_error,
    response_headers_conformance,
    response_schema_conformance,
    status_code_conformance,
)
from schemathesis.python import asgi

pytestmark = pytest.mark.slow

EXAMPLES = 3
CHECKS = [
    not_a_server_error,
    status_code_conformance,
    content_type_conformance,
    response_headers_conformance,
    response_schema_conformance,
]


@pytest.fixture(scope="module")
def services() -> ContractFakes:
    return ContractFakes.of_the_platform()


@pytest.fixture(scope="module")
def gateway_app(tmp_path_factory: pytest.TempPathFactory, services: ContractFakes) -> Iterator[Any]:
    database = tmp_path_factory.mktemp("fuzz") / "gateway.db"
    app = create_app(
        fast_settings(f"sqlite+aiosqlite:///{database}", migrate_on_start=True),
        services_transport=services.transport(),
    )
    yield app
    asgi.shutdown_lifespans()


@pytest.fixture(scope="module")
def api_schema(gateway_app: Any) -> Any:
    return schemathesis.openapi.from_asgi("/openapi.json", gateway_app)


@pytest.fixture(scope="module")
def credentials(gateway_app: Any, api_schema: Any) -> dict[str, dict[str, str]]:
    """Headers of each caller, logged in through the app itself once its start-up (run by the schema loader)
    made the administrator."""
    with asgi.get_client(gateway_app) as client:
        signup = {
            "concessionaire": "demo",
            "nickname": "Fuzzy",
            "email": "fuzzy@example.com",
            "date_of_birth": "1990-01-01",
            "password": PASSWORD,
        }
        player = client.post(f"http://{asgi.HOST}/api/v1/auth/signup", json=signup)
        staff = client.post(
            f"http://{asgi.HOST}/api/v1/auth/staff/login",
            json={"email": "admin@example.com", "password": "admin-test-password"},
        )
    assert player.status_code == 201, player.text
    assert staff.status_code == 200, staff.text
    tokens = {"player": player.json()["access_token"], "admin": staff.json()["access_token"]}
    return {"anonymous": {}} | {who: {"Authorization": f"Bearer {token}"} for who, token in tokens.items()}


def test_every_answer_is_the_one_the_document_declares(
    api_schema: Any, credentials: dict[str, dict[str, str]], services: ContractFakes
) -> None:
    """Valid and invalid requests alike (schemathesis' positive and negative modes)."""
    operations = [result.ok() for result in api_schema.get_all_operations()]
    assert len(operations) > 60
    for operation in operations:
        for mode in (GenerationMode.POSITIVE, GenerationMode.NEGATIVE):

            @given(case=operation.as_strategy(generation_mode=mode))
            @settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=list(HealthCheck), database=None)
            def answers_as_declared(case: Any) -> None:
                for headers in credentials.values():
                    case.call_and_validate(headers=headers, checks=CHECKS)

            try:
                answers_as_declared()
            except Unsatisfiable:
                assert mode is GenerationMode.NEGATIVE  # nothing in this operation can be made invalid
    assert services.unknown == []  # the gateway called nothing its services do not have
    assert services.calls  # and the relays did reach them


def test_the_fuzzed_document_covers_the_proxies(api_schema: Any) -> None:
    paths = set(api_schema.raw_schema["paths"])
    assert {"/api/v1/draws/{draw_id}/coupons", "/api/v1/tables/{table_id}/actions", "/api/v1/leaderboard"} <= paths


def test_a_fake_answer_follows_the_owning_services_contract(services: ContractFakes) -> None:
    """The fakes themselves: the draw the totalizator declares, with its required fields."""
    answer = services.transport().handle_request(httpx.Request("GET", "http://127.0.0.1:8005/v1/draws/2030-23"))
    assert answer.status_code == 200 and answer.headers["content-type"] == "application/json"
    assert {"draw_id", "status", "matches"} <= set(answer.json())
