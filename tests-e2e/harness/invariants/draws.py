"""A totalizator draw from announcement to payouts (T-3 to T-6): settled, every wallet transfer done, every
winning coupon paid exactly once and exactly what the settlement says, every stake taken once, and the draw's
pool accounts in the wallet empty afterwards."""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Mapping, Sequence
from decimal import Decimal
from typing import Any


def minor_units(text: str, exponent: int) -> int:
    """`"12.34"` in a currency with 2 decimals → 1234 (exactly)."""
    return int(Decimal(text).scaleb(exponent))


def draw_problems(
    draw: Mapping[str, Any],
    transfers: Sequence[Mapping[str, Any]],
    report: Mapping[str, Any],
    pools: Sequence[Mapping[str, Any]],
    coupons: Sequence[Mapping[str, Any]],
    exponents: Mapping[str, int],
    wallet_paid: Mapping[str, int],
) -> list[str]:
    """`transfers` are the totalizator's record of its wallet calls (kind `payout` for a winning coupon);
    `wallet_paid` is what the wallet's ledger shows paid from the draw's pools, per player."""
    d = draw["draw_id"]
    problems = []
    if draw["status"] != "settled":
        problems.append(f"draw {d}: status {draw['status']!r}, not settled")
    if draw["transfers"]["pending"] or draw["transfers"]["refused"]:
        problems.append(f"draw {d}: wallet transfers not all done: {draw['transfers']}")
    problems += [
        f"draw {d}: pool account {p['owner']} {p['currency']} holds {p['balance']}"
        for p in pools
        if p["balance"] or p["held"]
    ]

    expected = {p["coupon_id"]: minor_units(p["amount"], exponents[p["currency"]]) for p in report["payouts"]}
    paid = [t for t in transfers if t["kind"] == "payout"]
    times = Counter(t["coupon_id"] for t in paid)
    problems += [f"draw {d}: coupon {c} paid {n} times" for c, n in times.items() if n != 1]
    got = {t["coupon_id"]: t["amount"] for t in paid}
    if got != {c: a for c, a in expected.items() if a}:
        problems.append(f"draw {d}: payouts {got} differ from the settlement's {expected}")
    per_player: dict[str, int] = defaultdict(int)
    for transfer in paid:
        per_player[transfer["player_id"]] += transfer["amount"]
    if dict(per_player) != dict(wallet_paid):
        problems.append(f"draw {d}: the ledger paid {dict(wallet_paid)}, the totalizator says {dict(per_player)}")

    operations = Counter(c["wallet_operation_id"] for c in coupons)
    if any(c["status"] != "accepted" for c in coupons) or None in operations or max(operations.values(), default=1) > 1:
        problems.append(
            f"draw {d}: coupons not each staked exactly once: {[(c['coupon_id'], c['status'], c['wallet_operation_id']) for c in coupons]}"
        )
    return problems
