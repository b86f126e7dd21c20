"""Idempotency-Keys bound to their request (as the wallet's, and Stripe's).

A key is the caller's name for one request; the fingerprint says which request it named: the operation and
every field that decides what it does (tournament, player, entry, ticket code…), in canonical JSON, so the
same fields in another order or spacing are the same request. The same key with another fingerprint is a
client bug, refused rather than answered with another request's answer.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping
from typing import Any


def fingerprint(operation: str, fields: Mapping[str, Any]) -> str:
    """The SHA-256 of `operation` and `fields` (JSON values) in canonical form."""
    canonical = json.dumps(
        {"operation": operation, "fields": fields}, sort_keys=True, separators=(",", ":"), ensure_ascii=False
    )
    return hashlib.sha256(canonical.encode()).hexdigest()
