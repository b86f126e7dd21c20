"""Logs, one line a record, each carrying the service name and the correlation id: JSON objects for a
deployment's log collector, or readable text for a person watching a terminal (`choose_format`)."""

from __future__ import annotations

import json
import logging
import sys
from datetime import UTC, datetime
from typing import Any, Literal, TextIO, cast

from platform_kit import correlation

LogFormat = Literal["auto", "json", "text"]

_RESERVED = set(vars(logging.LogRecord("", 0, "", 0, "", None, None))) | {"message", "asctime"}


class JsonFormatter(logging.Formatter):
    def __init__(self, service: str) -> None:
        super().__init__()
        self.service = service

    def format(self, record: logging.LogRecord) -> str:
        entry: dict[str, Any] = {
            "ts": datetime.fromtimestamp(record.created, UTC).isoformat(timespec="milliseconds"),
            "level": record.levelname.lower(),
            "service": getattr(record, "service", self.service),
            "logger": record.name,
            "message": record.getMessage(),
            "correlation_id": correlation.current(),
        }
        # Structured extras passed with `logger.info("...", extra={...})` are kept as fields.
        for key, value in vars(record).items():
            if key not in _RESERVED and key not in entry:
                entry[key] = value
        if record.exc_info:
            entry["exception"] = self.formatException(record.exc_info)
        return json.dumps(entry, default=str)


class TextFormatter(logging.Formatter):
    """`18:46:22.123 gateway    WARNING  platform.access: request  [correlation id]`, then the traceback."""

    def __init__(self, service: str) -> None:
        super().__init__()
        self.service = service

    def format(self, record: logging.LogRecord) -> str:
        moment = datetime.fromtimestamp(record.created, UTC).strftime("%H:%M:%S.%f")[:-3]
        service = getattr(record, "service", self.service)
        line = f"{moment} {service:<19} {record.levelname:<8} {record.name}: {record.getMessage()}"
        if (correlation_id := correlation.current()) is not None:
            line += f"  [{correlation_id}]"
        if record.exc_info:
            line += "\n" + self.formatException(record.exc_info)
        return line


def parse_format(value: str) -> LogFormat:
    if value not in ("auto", "json", "text"):
        raise ValueError(f"{value!r} is not a log format: use auto, json or text")
    return cast(LogFormat, value)


def choose_format(setting: LogFormat, *, standalone: bool, stream: TextIO) -> Literal["json", "text"]:
    """`auto`: readable text for a standalone platform writing to a terminal (a newcomer's `make run`), JSON
    everywhere else — every deployment, and any output going to a file or a collector."""
    if setting != "auto":
        return setting
    return "text" if standalone and stream.isatty() else "json"


def configure(service: str, level: str = "INFO", log_format: Literal["json", "text"] = "json") -> None:
    """Route the root logger to stdout. Idempotent: a second call replaces the handler."""
    handler = logging.StreamHandler(sys.stdout)
    handler.setFormatter(TextFormatter(service) if log_format == "text" else JsonFormatter(service))
    root = logging.getLogger()
    root.handlers = [handler]
    root.setLevel(level.upper())
    for noisy in ("aiormq", "aio_pika", "uvicorn.access"):
        logging.getLogger(noisy).setLevel(logging.WARNING)
