"""What routes need: the service's `Services` (bootstrap.py), kept at `app.state.services`."""

from __future__ import annotations

from fastapi import Request

from table_engine.bootstrap import Services


def services_of(request: Request) -> Services:
    services: Services = request.app.state.services
    return services
