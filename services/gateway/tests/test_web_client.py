"""The web client shell is served at `/` next to the API, which it never shadows; the API's docs page works offline."""

import re

from gateway_test_support import Driver


async def test_the_shell_and_its_assets_are_served_at_the_root(driver: Driver) -> None:
    page = await driver.call("GET", "/", expect=200)
    assert page.headers["content-type"].startswith("text/html")
    assert 'name="viewport"' in page.text  # laid out for phones as well as desktops
    scripts = ""
    for asset in re.findall(r'(?:src|href)="([a-z-]+\.(?:js|css|svg))"', page.text):
        served = await driver.call("GET", f"/{asset}", expect=200)
        scripts += served.text if asset.endswith(".js") else ""
    # Game terms in English with the Italian original beside them; pages are added through the hash router.
    assert '["Lobby", "Sala"]' in scripts and '["Chips", "Fiches"]' in scripts
    for hash_route in ("#/lobby", "#/tournament/:id", "#/table/:id", "#/table/:id/hands", "#/draw/:id", "#/account"):
        assert f'page("{hash_route}"' in scripts, hash_route
    assert "socket=${this.kind}" in scripts
    # Issue 15 (9): the page has its favicon; (8) the page's `lang` follows the language chosen in the client.
    assert 'rel="icon" href="favicon.svg"' in page.text
    assert "document.documentElement.lang = lang" in scripts


async def test_the_api_and_operations_routes_win_over_the_static_files(driver: Driver) -> None:
    await driver.call("GET", "/healthz", expect=200)
    missing = await driver.call("GET", "/api/v1/no-such-thing", expect=404)
    assert missing.headers["content-type"] == "application/problem+json"
    assert (await driver.call("GET", "/openapi.json", expect=200)).json()["info"]["title"] == "Gateway"


async def test_issue15_the_docs_page_loads_swagger_ui_from_the_platform_not_a_cdn(driver: Driver) -> None:
    docs = await driver.call("GET", "/docs", expect=200)
    assets = re.findall(r'(?:src|href)="([^"]+)"', docs.text)
    assert assets and all(url.startswith("/") for url in assets), assets  # nothing from another host
    assert "cdn." not in docs.text
    for url in assets:
        served = await driver.call("GET", url, expect=200)
        assert served.content, url
    assert any(url.endswith("swagger-ui-bundle.js") for url in assets)
    redoc = await driver.call("GET", "/redoc", expect=307)
    assert redoc.headers["location"] == "/docs"


async def test_issue17_the_staff_console_is_at_slash_staff_and_signs_staff_in_at_their_own_log_in(
    driver: Driver,
) -> None:
    staff = await driver.call("GET", "/staff", expect=307)
    assert staff.headers["location"] == "/#/staff"
    console = (await driver.call("GET", "/staff.js", expect=200)).text
    assert '"/auth/staff/login"' in console  # players log in at /auth/login: staff are not players
    shell = (await driver.call("GET", "/app.js", expect=200)).text
    assert '"/auth/staff/login"' in shell  # the client's own log-in form lets the bootstrap admin in too
    pages = "".join(
        [
            (await driver.call("GET", f"/staff-{name}.js", expect=200)).text
            for name in ("tournaments", "players", "draws", "money")
        ]
    )
    for hash_route in (
        "#/staff/tournament/:id",
        "#/staff/player/:id",
        "#/staff/reports",
        "#/staff/draw/:id",
        "#/staff/money",
    ):
        assert f'staffPage("{hash_route}"' in pages, hash_route
