"""A known path asked with a method it does not have answers 405 with an `Allow` header that lists exactly the
methods the OpenAPI document gives the path; an unknown path under `/api` answers 404. Both are problems, and
neither is the web client's answer (its static files are served at `/`)."""

import re
from typing import Any

import pytest
from gateway_test_support import Driver

METHODS = ("GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS")
HTTP_METHODS = {"get", "head", "post", "put", "patch", "delete", "options", "trace"}


def _path_pattern(template: str, operations: dict[str, Any]) -> re.Pattern[str]:
    """A parameter is one segment, unless its declared pattern lets it hold a '/' (table ids do)."""
    patterns = {
        p["name"]: p.get("schema", {}).get("pattern", "")
        for op in operations.values()
        for p in op.get("parameters", [])
        if p["in"] == "path"
    }

    def parameter(match: re.Match[str]) -> str:
        return ".+" if "/" in patterns.get(match.group(1), "") else "[^/]+"

    return re.compile(re.sub(r"\\\{(\w+)\\\}", parameter, re.escape(template)))


def _declared(document: dict[str, Any]) -> list[tuple[str, re.Pattern[str], set[str]]]:
    return [
        (template, _path_pattern(template, ops), {m.upper() for m in ops if m in HTTP_METHODS})
        for template, ops in document["paths"].items()
    ]


async def test_every_method_a_documented_path_lacks_is_405_with_the_paths_methods(driver: Driver) -> None:
    declared = _declared((await driver.call("GET", "/openapi.json", expect=200)).json())
    checked = 0
    for template, _, _ in declared:
        url = re.sub(r"\{[^}]+\}", "1", template)
        # Every documented path the URL stands for: `/tables/1/actions` is also the table `1/actions`.
        allowed = set().union(*(methods for _, pattern, methods in declared if pattern.fullmatch(url)))
        for method in set(METHODS) - allowed:
            answer = await driver.call(method, url)
            assert answer.status_code == 405, (method, url, answer.text)
            assert set(answer.headers["allow"].split(", ")) == allowed, (method, url)
            assert answer.headers["content-type"] == "application/problem+json"
            if method != "HEAD":
                assert answer.json()["code"] == "method_not_allowed"
            checked += 1
    assert checked > 300


@pytest.mark.parametrize(
    ("method", "path", "allow"),
    [
        ("GET", "/api/v1/auth/signup", "POST"),  # was the web client's 404
        ("PUT", "/api/v1/players", "GET, POST"),  # two routes: was `GET, HEAD`, the web client's files'
        ("DELETE", "/api/v1/concessionaires/c-1/api-keys", "GET, POST"),
        ("POST", "/healthz", "GET"),
    ],
)
async def test_a_wrong_method_lists_every_route_of_the_path(driver: Driver, method: str, path: str, allow: str) -> None:
    answer = await driver.call(method, path)
    assert (answer.status_code, answer.headers["allow"], answer.json()["code"]) == (405, allow, "method_not_allowed")


@pytest.mark.parametrize("method", ["GET", "POST", "DELETE"])
@pytest.mark.parametrize("path", ["/api/v1/nowhere", "/api/v1/players/", "/api"])
async def test_an_unknown_api_path_is_404_whatever_the_method(driver: Driver, method: str, path: str) -> None:
    answer = await driver.call(method, path)
    assert (answer.status_code, answer.json()["code"]) == (404, "not_found")
    assert "allow" not in answer.headers


async def test_the_web_client_is_still_served_with_its_own_methods(driver: Driver) -> None:
    page = await driver.call("GET", "/", expect=200)
    assert page.headers["content-type"].startswith("text/html")
    refused = await driver.call("POST", "/app.js", expect=405)
    assert refused.headers["allow"] == "GET, HEAD"
