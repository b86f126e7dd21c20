"""Logs a person can read on a terminal, JSON for every deployment (issue: a newcomer's `make run` printed a
wall of JSON)."""

from __future__ import annotations

import io
import json
import logging

import pytest
from platform_kit import correlation
from platform_kit.logging import JsonFormatter, TextFormatter, choose_format, parse_format


class Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def record(message: str = "table opened", **extra: object) -> logging.LogRecord:
    entry = logging.LogRecord("table_engine.host", logging.WARNING, __file__, 1, message, None, None)
    for key, value in extra.items():
        setattr(entry, key, value)
    return entry


@pytest.mark.parametrize(
    ("setting", "standalone", "terminal", "chosen"),
    [
        ("auto", True, True, "text"),  # make run in a terminal
        ("auto", True, False, "json"),  # standalone, output to a file or a pipe
        ("auto", False, True, "json"),  # a deployment keeps JSON, terminal or not
        ("auto", False, False, "json"),
        ("json", True, True, "json"),  # the setting wins
        ("text", False, False, "text"),
    ],
)
def test_auto_is_text_only_for_a_standalone_platform_on_a_terminal(
    setting: str, standalone: bool, terminal: bool, chosen: str
) -> None:
    stream = Terminal() if terminal else io.StringIO()
    assert choose_format(parse_format(setting), standalone=standalone, stream=stream) == chosen


def test_an_unknown_format_is_refused() -> None:
    with pytest.raises(ValueError, match="auto, json or text"):
        parse_format("yaml")


def test_a_text_line_has_time_service_level_logger_message_and_correlation_id() -> None:
    token = correlation.bind("req-42")
    try:
        line = TextFormatter("table-engine").format(record())
        as_json = json.loads(JsonFormatter("table-engine").format(record()))
    finally:
        correlation.reset(token)
    assert line.endswith("table-engine        WARNING  table_engine.host: table opened  [req-42]")
    assert line[2] == ":" and line[8] == "."  # HH:MM:SS.mmm first
    assert (as_json["service"], as_json["level"], as_json["correlation_id"]) == ("table-engine", "warning", "req-42")


def test_a_text_line_without_a_correlation_id_says_nothing_of_it() -> None:
    assert (
        TextFormatter("wallet")
        .format(record("ready"))
        .endswith("wallet              WARNING  table_engine.host: ready")
    )
