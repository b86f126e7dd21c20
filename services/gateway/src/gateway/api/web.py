"""The web client: static files served at `/` (no build step), and the API's docs page served offline.

FastAPI's own `/docs` and `/redoc` pages load Swagger UI and ReDoc from a CDN, so without internet they are blank
pages. They are replaced by a Swagger UI page whose assets come from the `swagger-ui-bundle-v2` package (Apache-2.0),
served under `/docs/assets/`; `/redoc` leads there too. Nothing the pages need leaves the platform.
"""

from __future__ import annotations

from pathlib import Path

import swagger_ui_bundle
from fastapi import FastAPI
from fastapi.openapi.docs import get_swagger_ui_html
from fastapi.responses import HTMLResponse, RedirectResponse
from fastapi.routing import APIRoute
from fastapi.staticfiles import StaticFiles
from starlette.routing import Mount, Route

WEB_DIR = Path(__file__).resolve().parents[1] / "web"
SWAGGER_UI_DIR = Path(swagger_ui_bundle.swagger_ui_path)  # Swagger UI 5: draws OpenAPI 3.1, as FastAPI writes it
DOCS_ASSETS = "/docs/assets"


def mount_web_client(app: FastAPI) -> None:
    _serve_docs_offline(app)

    async def staff_console() -> RedirectResponse:  # the console is a page of the client (issue 17)
        return RedirectResponse("/#/staff")

    # First: the API fallback, registered earlier, would answer it 405 (a path it knows, another method).
    app.router.routes.insert(0, APIRoute("/staff", staff_console, methods=["GET"], include_in_schema=False))
    # Mounted last: every API and operations route registered before it wins.
    app.mount("/", StaticFiles(directory=WEB_DIR, html=True), name="web")


def _serve_docs_offline(app: FastAPI) -> None:
    """Each CDN page is replaced where it stands: routes after it (the API fallback's 405 for a path some route
    has) must not take its requests first."""
    title = f"{app.title} API"
    openapi_url = app.openapi_url or "/openapi.json"

    async def docs() -> HTMLResponse:
        return get_swagger_ui_html(
            openapi_url=openapi_url,
            title=title,
            swagger_js_url=f"{DOCS_ASSETS}/swagger-ui-bundle.js",
            swagger_css_url=f"{DOCS_ASSETS}/swagger-ui.css",
            swagger_favicon_url="/favicon.svg",
        )

    async def redoc() -> RedirectResponse:
        return RedirectResponse("/docs")

    offline = {"/docs": docs, "/redoc": redoc}
    routes = app.router.routes
    for i, route in enumerate(routes):
        if isinstance(route, Route) and route.path in offline:
            routes[i] = APIRoute(route.path, offline[route.path], methods=["GET"], include_in_schema=False)
    routes.insert(0, Mount(DOCS_ASSETS, StaticFiles(directory=SWAGGER_UI_DIR), name="docs-assets"))
