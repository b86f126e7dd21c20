"""The web client: static files served at `/` (no build step)."""

from __future__ import annotations

from pathlib import Path

from fastapi import FastAPI
from fastapi.staticfiles import StaticFiles

WEB_DIR = Path(__file__).resolve().parents[1] / "web"


def mount_web_client(app: FastAPI) -> None:
    # Mounted last: every API and operations route registered before it wins.
    app.mount("/", StaticFiles(directory=WEB_DIR, html=True), name="web")
