"""The answers the gateway's document shows for its relayed routes are answers the owning service can give: each
example, as the served document has it, is valid for the schema of the service's own contract, and the route
declares every success status the service answers with."""

from typing import Any

import jsonschema
import pytest
from platform_runner.contracts import openapi_documents

# (gateway method, gateway path, status) -> (service, method, path) of the call the route relays.
RELAYED = {
    ("GET", "/api/v1/tournaments", "200"): ("tournament-director", "GET", "/v1/tournaments"),
    ("POST", "/api/v1/tournaments/{tournament_id}/registrations", "201"): (
        "tournament-director",
        "POST",
        "/internal/v1/tournaments/{tournament_id}/registrations",
    ),
    ("DELETE", "/api/v1/tournaments/{tournament_id}/registrations/{player_id}", "200"): (
        "tournament-director",
        "DELETE",
        "/internal/v1/tournaments/{tournament_id}/registrations/{player_id}",
    ),
    ("GET", "/api/v1/hands/{hand_id}/phh", "200"): ("table-engine", "GET", "/v1/hands/{hand_id}/phh"),
    ("GET", "/api/v1/tables/{table_id}", "200"): ("table-engine", "GET", "/v1/tables/{table_id}"),
    ("GET", "/api/v1/draws/{draw_id}", "200"): ("totalizator", "GET", "/v1/draws/{draw_id}"),
    ("GET", "/api/v1/draws/{draw_id}/statistics", "200"): ("totalizator", "GET", "/v1/draws/{draw_id}/statistics"),
    ("GET", "/api/v1/totalizator/jackpot", "200"): ("totalizator", "GET", "/v1/jackpot"),
    ("POST", "/api/v1/draws/{draw_id}/coupons", "201"): ("totalizator", "POST", "/internal/v1/draws/{draw_id}/coupons"),
    ("POST", "/api/v1/draws/{draw_id}/coupons", "200"): ("totalizator", "POST", "/internal/v1/draws/{draw_id}/coupons"),
    ("GET", "/api/v1/players/{player_id}/coupons", "200"): (
        "totalizator",
        "GET",
        "/internal/v1/players/{player_id}/coupons",
    ),
    ("GET", "/api/v1/coupons/{coupon_id}", "200"): ("totalizator", "GET", "/internal/v1/coupons/{coupon_id}"),
    ("GET", "/api/v1/players/{player_id}/accounts", "200"): (
        "wallet",
        "GET",
        "/internal/v1/players/{player_id}/accounts",
    ),
    ("GET", "/api/v1/players/{player_id}/statement", "200"): (
        "wallet",
        "GET",
        "/internal/v1/partner/players/{player_id}/statement",
    ),
    ("POST", "/api/v1/players/{player_id}/deposits", "201"): (
        "wallet",
        "POST",
        "/internal/v1/partner/players/{player_id}/deposits",
    ),
    ("POST", "/api/v1/players/{player_id}/withdrawals", "201"): (
        "wallet",
        "POST",
        "/internal/v1/partner/players/{player_id}/withdrawals",
    ),
    ("POST", "/api/v1/concessionaires/{concessionaire_id}/funding", "201"): (
        "wallet",
        "POST",
        "/internal/v1/partner/funding",
    ),
    ("GET", "/api/v1/reconciliation", "200"): ("wallet", "GET", "/internal/v1/reconciliation"),
    ("GET", "/api/v1/concessionaires/{concessionaire_id}/reconciliation", "200"): (
        "wallet",
        "GET",
        "/internal/v1/reconciliation",
    ),
    ("GET", "/api/v1/leaderboard", "200"): ("rating", "GET", "/v1/leaderboard"),
    ("POST", "/api/v1/sanctions", "201"): ("rating", "POST", "/internal/v1/sanctions"),
}


@pytest.fixture(scope="module")
def documents() -> dict[str, Any]:
    return openapi_documents()


def _examples(document: dict[str, Any]) -> dict[tuple[str, str, str], tuple[str, Any]]:
    """Every example of a success answer in the document, with its media type."""
    return {
        (method.upper(), path, status): (media_type, content["example"])
        for path, operations in document["paths"].items()
        for method, operation in operations.items()
        for status, answer in operation.get("responses", {}).items()
        if status.startswith("2")
        for media_type, content in (answer.get("content") or {}).items()
        if "example" in content
    }


def test_every_example_of_a_relayed_answer_is_checked(documents: dict[str, Any]) -> None:
    assert set(_examples(documents["gateway"])) == set(RELAYED)


@pytest.mark.parametrize("relayed", sorted(RELAYED), ids=" ".join)
def test_the_example_is_an_answer_of_the_owning_service(
    documents: dict[str, Any], relayed: tuple[str, str, str]
) -> None:
    media_type, example = _examples(documents["gateway"])[relayed]
    service, method, path = RELAYED[relayed]
    owner = documents[service]
    answer = owner["paths"][path][method.lower()]["responses"][relayed[2]]
    assert media_type in answer["content"]
    schema = {**answer["content"][media_type].get("schema", {}), "components": owner.get("components", {})}
    errors = [
        f"{list(e.absolute_path)}: {e.message}" for e in jsonschema.Draft202012Validator(schema).iter_errors(example)
    ]
    assert errors == []


@pytest.mark.parametrize("relayed", sorted(RELAYED), ids=" ".join)
def test_the_route_declares_every_success_of_the_owning_service(
    documents: dict[str, Any], relayed: tuple[str, str, str]
) -> None:
    gateway_method, gateway_path, _ = relayed
    service, method, path = RELAYED[relayed]
    owned = documents[service]["paths"][path][method.lower()]["responses"]
    declared = documents["gateway"]["paths"][gateway_path][gateway_method.lower()]["responses"]
    assert {s for s in owned if s.startswith("2")} <= set(declared)
