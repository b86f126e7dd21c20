"""Idempotency keys (as Stripe's): a command is identified by its key, its request by a fingerprint.

The same key with the same request returns the first result; the same key with a different request is a
client bug and is refused. The fingerprint covers the method, the path and the parsed body in canonical
form, so the same body sent with other whitespace or key order is the same request.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping
from typing import Any


def fingerprint(method: str, path: str, body: Mapping[str, Any]) -> str:
    canonical = json.dumps(
        {"method": method.upper(), "path": path, "body": body},
        sort_keys=True,
        separators=(",", ":"),
        ensure_ascii=False,
    )
    return hashlib.sha256(canonical.encode()).hexdigest()
