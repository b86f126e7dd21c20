"""Command line of the totalizator service: `totalizator <command>`.

    totalizator verify --draw draw-<id>.json --bets bets-<id>.csv [--json] [--cross-check]

reads the published files (T-8) and prints the settlement computed by the same code the service settles
with (T-8.4). Other commands (e.g. `serve`) register themselves in `build_parser` the way `verify` does.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from totalizator.domain import TotalizatorError, settle, settle_by_expansion
from totalizator.files import PublishedFileError, read_bets, read_draw, settlement_to_json


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    status: int = args.run(args)
    return status


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="totalizator", description="The exact-score totalizator.")
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    add_verify_command(commands)
    return parser


def add_verify_command(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    verify = commands.add_parser(
        "verify",
        help="recompute a draw's settlement from its published files",
        description="Read a draw file and its bet file (T-8) and print the whole settlement (T-8.4).",
    )
    verify.add_argument("--draw", required=True, type=Path, help="the draw file, draw-<id>.json")
    verify.add_argument("--bets", required=True, type=Path, help="the bet file, bets-<id>.csv")
    verify.add_argument("--json", action="store_true", help="print JSON instead of a table")
    verify.add_argument(
        "--cross-check",
        action="store_true",
        help="also settle by expanding every coupon into its lines and fail if the results differ "
        "(slow: for small files)",
    )
    verify.set_defaults(run=run_verify)


def run_verify(args: argparse.Namespace) -> int:
    try:
        with args.draw.open(encoding="utf-8") as source:
            draw = read_draw(source)
        with args.bets.open(encoding="utf-8", newline="") as source:
            coupons = read_bets(draw, source)
        settlement = settle(draw, coupons)
        if args.cross_check and settle_by_expansion(draw, coupons) != settlement:
            print("totalizator verify: counting and line expansion disagree", file=sys.stderr)
            return 1
    except (OSError, PublishedFileError, TotalizatorError) as exc:
        print(f"totalizator verify: {exc}", file=sys.stderr)
        return 2
    report = settlement_to_json(settlement)
    print(json.dumps(report, indent=2, ensure_ascii=False) if args.json else render_report(report))
    return 0


def render_report(report: dict[str, Any]) -> str:
    """The verifier's JSON report as readable text tables (same figures, same rounding)."""
    void = ", ".join(map(str, report["void_matches"])) or "none"
    state = "REFUNDED: every coupon gets its amount back (T-5.5)" if report["refunded"] else "settled"
    jackpot = report["jackpot"]
    sections = [
        f"Draw {report['draw_id']}: {state}; void matches: {void}",
        _table(
            ("coupons", "bets", "pool USD", "prize fund USD", "organizer share USD"),
            [
                (
                    report["coupons"],
                    report["bets"],
                    report["pool_usd"],
                    report["prize_fund_usd"],
                    report["organizer_share_usd"],
                )
            ],
        ),
        _table(
            ("right", "bets", "stake USD"),
            [(row["right"], row["bets"], row["stake_usd"]) for row in report["bets_by_right"]],
        ),
        _table(
            ("category", "min right", "share of pool", "fund USD", "winning stake USD", "bets"),
            [
                (c["category"], c["min_right"], c["share_of_pool"], c["fund_usd"], c["winning_stake_usd"], c["bets"])
                for c in report["categories"]
            ],
        ),
        _table(
            ("right", "coefficient paid", "coefficient from pool and jackpot"),
            [(c["right"], c["coefficient"], c["pool_coefficient"]) for c in report["coefficients"]],
        ),
        _table(
            ("jackpot", "available USD", "played USD", "from pool USD", "next USD"),
            [("", jackpot["available_usd"], jackpot["played_usd"], jackpot["from_pool_usd"], jackpot["next_usd"])],
        ),
        _table(
            ("jackpot part", "min right", "fund USD", "winning stake USD", "bets"),
            [
                (p["share_of_jackpot"], p["min_right"], p["fund_usd"], p["winning_stake_usd"], p["bets"])
                for p in jackpot["parts"]
            ],
        ),
        _table(
            ("paid USD", "organizer top-up USD", "rounding remainder USD"),
            [(report["paid_usd"], report["organizer_topup_usd"], report["rounding_remainder_usd"])],
        ),
        _table(
            ("coupon", "currency", "payout"),
            [(p["coupon_id"], p["currency"], p["amount"]) for p in report["payouts"]],
        ),
    ]
    return "\n\n".join(sections)


def _table(headers: Sequence[str], rows: Sequence[Sequence[object]]) -> str:
    cells = [list(headers), *([str(cell) for cell in row] for row in rows)]
    widths = [max(len(row[i]) for row in cells) for i in range(len(headers))]
    lines = ["  ".join(cell.rjust(width) for cell, width in zip(row, widths, strict=True)) for row in cells]
    lines.insert(1, "  ".join("-" * width for width in widths))
    return "\n".join(lines)


if __name__ == "__main__":
    sys.exit(main())
