"""The six services, by name: how to build each one's app and settings without importing the others."""

from __future__ import annotations

import importlib
from typing import Protocol

from fastapi import FastAPI
from platform_kit.bus import Transport
from platform_kit.settings import ServiceSettings

SERVICES = ("gateway", "tournament-director", "table-engine", "wallet", "rating", "totalizator")


class AppFactory(Protocol):
    def __call__(self, settings: ServiceSettings | None = None, *, bus: Transport | None = None) -> FastAPI: ...


def package(service: str) -> str:
    if service not in SERVICES:
        raise SystemExit(f"unknown service {service!r}; choose one of {', '.join(SERVICES)}")
    return service.replace("-", "_")


def settings_class(service: str) -> type[ServiceSettings]:
    cls: type[ServiceSettings] = importlib.import_module(f"{package(service)}.settings").Settings
    return cls


def app_factory(service: str) -> AppFactory:
    factory: AppFactory = importlib.import_module(f"{package(service)}.app").create_app
    return factory
