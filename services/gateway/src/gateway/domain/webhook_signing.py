"""How a delivery is signed, modelled on Stripe's `Stripe-Signature` scheme: pure, no I/O.

The signed text is `<timestamp>.<body>` (the Unix time in seconds of the attempt, a dot, the exact bytes of the
body); the signature is its HMAC-SHA256 under the endpoint's secret (the whole `whsec_…` string, UTF-8), in
lower-case hex. The header lists the timestamp and one `v1=` value per secret in force, so during a rotation's
overlap window the partner's old and new secrets both verify:

    Webhook-Signature: t=1767268800,v1=5257a8…,v1=9f1c0e…

A partner recomputes the HMAC with its secret, compares it in constant time with each `v1`, and refuses a
timestamp too far from its own clock (a replayed capture); `Webhook-Id` deduplicates (docs/partners.md).
"""

from __future__ import annotations

import hashlib
import hmac
from collections.abc import Sequence

SIGNATURE_HEADER = "Webhook-Signature"
ID_HEADER = "Webhook-Id"
TYPE_HEADER = "Webhook-Type"
TIMESTAMP_HEADER = "Webhook-Timestamp"
SECRET_PREFIX = "whsec_"


def signature(secret: str, timestamp: int, body: bytes) -> str:
    signed = str(timestamp).encode() + b"." + body
    return hmac.new(secret.encode(), signed, hashlib.sha256).hexdigest()


def signature_header(secrets: Sequence[str], timestamp: int, body: bytes) -> str:
    """`t=<timestamp>,v1=<hex>[,v1=<hex>]`: one value per secret, the newest first."""
    if not secrets:
        raise ValueError("an endpoint always has a secret")
    return ",".join([f"t={timestamp}", *(f"v1={signature(secret, timestamp, body)}" for secret in secrets)])


def headers(*, event_id: str, event_type: str, timestamp: int, body: bytes, secrets: Sequence[str]) -> dict[str, str]:
    return {
        "Content-Type": "application/json",
        ID_HEADER: event_id,
        TYPE_HEADER: event_type,
        TIMESTAMP_HEADER: str(timestamp),
        SIGNATURE_HEADER: signature_header(secrets, timestamp, body),
    }
