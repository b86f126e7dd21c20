"""The served OpenAPI document declares every operation's problem answers, with the problem+json type and the
headers that come with them, and shows examples as the routes give them."""

from typing import Any

import pytest
from gateway_test_support import Driver

PROBLEM = {"application/problem+json": {"schema": {"$ref": "#/components/schemas/Problem"}}}


@pytest.fixture
async def document(driver: Driver) -> dict[str, Any]:
    answer: dict[str, Any] = (await driver.call("GET", "/openapi.json", expect=200)).json()
    return answer


def _api_operations(document: dict[str, Any]) -> list[tuple[str, str, dict[str, Any]]]:
    return [
        (method.upper(), path, operation)
        for path, operations in document["paths"].items()
        if path.startswith("/api/")
        for method, operation in operations.items()
    ]


async def test_every_api_operation_declares_its_problem_answers(document: dict[str, Any]) -> None:
    for method, path, operation in _api_operations(document):
        responses = operation["responses"]
        assert {"422", "429"} <= set(responses), (method, path)
        assert responses["429"]["headers"]["Retry-After"]["required"], (method, path)
        if "{" in path:
            assert "404" in responses, (method, path)
        for status, answer in responses.items():
            if status[0] in "45":
                assert answer["content"] == PROBLEM, (method, path, status)


async def test_operations_that_need_credentials_declare_401_and_403(document: dict[str, Any]) -> None:
    """Including the table routes, whose `{table_id:path}` the document writes `{table_id}` (they had none)."""
    protected = [
        (m, p, op) for m, p, op in _api_operations(document) if "anyone (no credentials)" not in op["description"]
    ]
    assert ("POST", "/api/v1/tables/{table_id}/actions") in {(m, p) for m, p, _ in protected}
    for method, path, operation in protected:
        assert {"401", "403"} <= set(operation["responses"]), (method, path)
        assert operation["responses"]["401"]["headers"]["WWW-Authenticate"]["required"], (method, path)


async def test_relayed_operations_declare_the_owning_services_refusals(document: dict[str, Any]) -> None:
    responses = document["paths"]["/api/v1/admin/draws/{draw_id}/settle"]["post"]["responses"]
    assert {"4XX", "502", "503", "504"} <= set(responses)


async def test_an_examples_nulls_are_kept(document: dict[str, Any]) -> None:
    statement = document["paths"]["/api/v1/players/{player_id}/statement"]["get"]["responses"]["200"]
    example = statement["content"]["application/json"]["example"]
    assert example["next_cursor"] is None and example["items"][0]["tournament_id"] is None
