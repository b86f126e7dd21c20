"""Finding control characters in what a client sent: a JSON body, a query string, a path.

No API of the platform has a use for them, and they do harm downstream: PostgreSQL refuses a NUL in text (a 500
after the request was half processed), terminals and log viewers act on escapes. Tab, line feed and carriage
return stay allowed: free text (a reason, a reference) may keep its layout. Every other C0 control (U+0000–U+001F)
and DEL (U+007F) is refused.

Every request pays for the check, so each finder first looks at the raw bytes with C-speed string operations and
parses only when they show a suspect: a raw control byte, a JSON `\\u00XX` escape, a `%00`–`%1F`/`%7F` escape.
"""

from __future__ import annotations

import json
import re
from typing import Any
from urllib.parse import parse_qsl

FORBIDDEN = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]")
_FORBIDDEN_BYTES = bytes([*range(0x00, 0x09), 0x0B, 0x0C, *range(0x0E, 0x20), 0x7F])
_PERCENT_ESCAPE = re.compile(rb"%(?:[01][0-9a-fA-F]|7[fF])")
# A body full of them is refused on the first few: the answer need not list thousands of fields.
MAX_REPORTED = 10


def _has_raw_control(data: bytes) -> bool:
    # One C pass that deletes the forbidden bytes: several times faster than a regular expression on a large body.
    return len(data.translate(None, _FORBIDDEN_BYTES)) != len(data)


def _named(part: str) -> str:
    """A field name fit to be echoed back: its own control characters replaced."""
    return FORBIDDEN.sub("\ufffd", part)


def body_fields(body: bytes) -> list[str]:
    """The fields (`body.a.0.b`, as in validation errors) of a JSON body whose value or key holds a control
    character. A body that is not JSON yields none: the route's own validation refuses it."""
    # \u00 also finds harmless escapes such as \u00e9 (é): those bodies are parsed for nothing, and pass.
    if b"\\u00" not in body and not _has_raw_control(body):
        return []
    try:
        # strict=False parses raw control characters inside strings, so that they too are named by field.
        document = json.loads(body, strict=False)
    except (ValueError, RecursionError):
        return []
    found: list[str] = []
    pending: list[tuple[str, Any]] = [("body", document)]
    while pending and len(found) < MAX_REPORTED:
        where, value = pending.pop()
        if isinstance(value, str):
            if FORBIDDEN.search(value):
                found.append(where)
        elif isinstance(value, dict):
            for key, item in reversed(value.items()):
                field = f"{where}.{_named(key)}"
                if FORBIDDEN.search(key):
                    found.append(field)
                else:
                    pending.append((field, item))
        elif isinstance(value, list):
            pending.extend((f"{where}.{index}", item) for index, item in reversed(list(enumerate(value))))
    return found


def query_fields(query_string: bytes) -> list[str]:
    """The parameters (`query.name`) whose name or percent-decoded value holds a control character."""
    suspect = (b"%" in query_string and _PERCENT_ESCAPE.search(query_string)) or _has_raw_control(query_string)
    if not suspect:
        return []
    pairs = parse_qsl(query_string.decode("latin-1"), keep_blank_values=True)  # as Starlette decodes it
    return [f"query.{_named(name)}" for name, value in pairs if FORBIDDEN.search(name) or FORBIDDEN.search(value)][
        :MAX_REPORTED
    ]


def path_fields(path: str) -> list[str]:
    """`path` when the (percent-decoded) path, and so some path parameter, holds a control character."""
    if path.isascii() and path.isprintable():  # for ASCII, exactly "no control character at all"
        return []
    return ["path"] if FORBIDDEN.search(path) else []
