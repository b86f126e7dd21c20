"""The v1 modules are included busiest first (`api/v1/router.py`): FastAPI tries routes in order, so the order
is chosen for speed. That is only safe while no two modules answer one path and method: then every request finds
the same route whatever the order."""

import re

from fastapi.routing import APIRoute
from gateway.api.v1.router import MODULES


def _example(template: str) -> str:
    """A concrete path the template's route answers: each parameter a plain segment."""
    return re.sub(r"\{[^}]+\}", "x1", template)


def test_no_two_modules_answer_the_same_path_and_method() -> None:
    routes = [
        (module.__name__, route) for module in MODULES for route in module.router.routes if isinstance(route, APIRoute)
    ]
    assert len(routes) > 50
    clashes = [
        (owner, route.path, other, candidate.path)
        for owner, route in routes
        for other, candidate in routes
        if other != owner and route.methods & candidate.methods and candidate.path_regex.match(_example(route.path))
    ]
    assert clashes == []
