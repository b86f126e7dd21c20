"""The web client shell is served at `/` next to the API, which it never shadows."""

import re

from gateway_test_support import Driver


async def test_the_shell_and_its_assets_are_served_at_the_root(driver: Driver) -> None:
    page = await driver.call("GET", "/", expect=200)
    assert page.headers["content-type"].startswith("text/html")
    assert 'name="viewport"' in page.text  # laid out for phones as well as desktops
    scripts = ""
    for asset in re.findall(r'(?:src|href)="([a-z]+\.(?:js|css))"', page.text):
        served = await driver.call("GET", f"/{asset}", expect=200)
        scripts += served.text if asset.endswith(".js") else ""
    # Game terms in English with the Italian original beside them; pages are added through the hash router.
    assert '["Lobby", "Sala"]' in scripts and '["Chips", "Fiches"]' in scripts
    for hash_route in ("#/lobby", "#/tournament/:id", "#/table/:id", "#/table/:id/hands", "#/draw/:id", "#/account"):
        assert f'page("{hash_route}"' in scripts, hash_route
    assert "socket=${this.kind}" in scripts


async def test_the_api_and_operations_routes_win_over_the_static_files(driver: Driver) -> None:
    await driver.call("GET", "/healthz", expect=200)
    missing = await driver.call("GET", "/api/v1/no-such-thing", expect=404)
    assert missing.headers["content-type"] == "application/problem+json"
    assert (await driver.call("GET", "/openapi.json", expect=200)).json()["info"]["title"] == "Gateway"
