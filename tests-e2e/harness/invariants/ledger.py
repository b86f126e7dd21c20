"""The ledger balances: per currency, the balances of all accounts sum to zero, and every balance and held
amount equals what its entries and holds say (the wallet's own reconciliation, `GET /internal/v1/reconciliation`)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any


def reconciliation_problems(report: Mapping[str, Any]) -> list[str]:
    problems = []
    for currency in report["currencies"]:
        code = currency["currency"]
        if currency["sum_of_balances"] != 0:
            problems.append(f"ledger: the {code} balances sum to {currency['sum_of_balances']}, not 0")
        problems += [
            f"ledger: {code} account drifts from its entries or holds: {drift}" for drift in currency["drifts"]
        ]
    if not report["ok"] and not problems:
        problems.append(f"ledger: reconciliation not ok: {report}")
    return problems
