"""Schemathesis against the gateway's own OpenAPI document, in process: generated requests (valid and
otherwise) to every operation, as a player and as an administrator, never make the gateway answer 5xx.

The other services are faked: every relayed call succeeds with an empty JSON object, so the gateway's own
code runs to the end of each route. A bounded number of examples per operation keeps it to seconds.
"""

from typing import Any

import httpx
import pytest
import schemathesis
from gateway.app import create_app
from gateway_test_support import PASSWORD, fast_settings
from hypothesis import HealthCheck, given, settings
from hypothesis.errors import Unsatisfiable
from schemathesis import GenerationMode
from schemathesis.checks import not_a_server_error
from schemathesis.python import asgi

pytestmark = pytest.mark.slow

EXAMPLES = 2


def every_service_agrees(request: httpx.Request) -> httpx.Response:
    return httpx.Response(201 if request.method != "GET" else 200, json={})


@pytest.fixture(scope="module")
def gateway_app(tmp_path_factory: pytest.TempPathFactory) -> Any:
    database = tmp_path_factory.mktemp("fuzz") / "gateway.db"
    app = create_app(
        fast_settings(f"sqlite+aiosqlite:///{database}", migrate_on_start=True),
        services_transport=httpx.MockTransport(every_service_agrees),
    )
    yield app
    asgi.shutdown_lifespans()


@pytest.fixture(scope="module")
def api_schema(gateway_app: Any) -> Any:
    return schemathesis.openapi.from_asgi("/openapi.json", gateway_app)


@pytest.fixture(scope="module")
def tokens(gateway_app: Any, api_schema: Any) -> dict[str, str]:
    """Logged in through the app itself, once its start-up (run by the schema loader) made the administrator."""
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
    return {"player": player.json()["access_token"], "admin": staff.json()["access_token"]}


def test_no_generated_request_makes_the_gateway_fail(api_schema: Any, tokens: dict[str, str]) -> None:
    """Valid and invalid requests alike (schemathesis' positive and negative modes)."""
    operations = [result.ok() for result in api_schema.get_all_operations()]
    assert len(operations) > 60
    for operation in operations:
        for mode in (GenerationMode.POSITIVE, GenerationMode.NEGATIVE):

            @given(case=operation.as_strategy(generation_mode=mode))
            @settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=list(HealthCheck), database=None)
            def never_fails(case: Any) -> None:
                for token in tokens.values():
                    response = case.call(headers={"Authorization": f"Bearer {token}"})
                    case.validate_response(response, checks=[not_a_server_error])

            try:
                never_fails()
            except Unsatisfiable:
                assert mode is GenerationMode.NEGATIVE  # nothing in this operation can be made invalid


def test_the_fuzzed_document_covers_the_proxies(api_schema: Any) -> None:
    paths = set(api_schema.raw_schema["paths"])
    assert {"/api/v1/draws/{draw_id}/coupons", "/api/v1/tables/{table_id}/actions", "/api/v1/leaderboard"} <= paths
