"""The ``table-engine`` command: an argparse program with subcommands.

    uv run table-engine phh replay PATH...

replays PHH files through this engine and prints one JSON object per line, ``{"file": ..., "finishing_stacks":
[...]}`` or ``{"file": ..., "error": "..."}``; the exit status is 1 when any file failed.

    uv run table-engine verify-deal --hand HAND.json|HAND.phh [--commitment HEX]

the public verifier of a provably fair deal (docs/fair-deal.md): recomputes the deck from the seed and the
contributions the hand's audit record (JSON) or history (PHH) reveals, checks the seed against the commitment
(the file's, or the one ``--commitment`` says was published before the hand) and every card the file shows,
prints what it checked, and exits 1 on any mismatch, 2 when the file is not such a record. Other subcommands
(``serve``...) plug in through ``build_parser``'s subparsers.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from pathlib import Path

from table_engine.domain.fair_deal import verify
from table_engine.phh import deal_record
from table_engine.phh.notation import PhhError, loads
from table_engine.phh.replay import ReplayError, replay


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="table-engine", description="The table engine of the poker platform.")
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    phh = commands.add_parser("phh", help="hand histories in the PHH format")
    phh_commands = phh.add_subparsers(dest="phh_command", required=True, metavar="PHH_COMMAND")
    replay_parser = phh_commands.add_parser(
        "replay",
        help="replay PHH files (no-limit and fixed-limit hold'em) through this engine",
        description="Print one JSON line per file: its finishing stacks, or the error.",
    )
    replay_parser.add_argument("paths", nargs="+", type=Path, metavar="PATH")
    replay_parser.set_defaults(handler=_replay_files)
    verify_parser = commands.add_parser(
        "verify-deal",
        help="check that a hand's deck follows from its revealed seed and contributions",
        description="Recompute the deck from the seed and contributions a hand's audit record (JSON) or history "
        "(PHH) reveals; check the seed against the commitment and every card the file shows.",
    )
    verify_parser.add_argument("--hand", required=True, type=Path, help="the hand's audit JSON or PHH history")
    verify_parser.add_argument(
        "--commitment", help="the commitment published before the hand (table.hand.started); default: the file's"
    )
    verify_parser.set_defaults(handler=_verify_deal)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    status: int = args.handler(args)
    return status


def _replay_files(args: argparse.Namespace) -> int:
    failed = False
    for path in args.paths:
        line: dict[str, object] = {"file": str(path)}
        try:
            line["finishing_stacks"] = replay(loads(path.read_text(encoding="utf-8")))
        except (OSError, UnicodeDecodeError, PhhError, ReplayError) as error:
            line["error"] = str(error)
            failed = True
        sys.stdout.write(json.dumps(line) + "\n")
    return 1 if failed else 0


def _verify_deal(args: argparse.Namespace) -> int:
    try:
        record = deal_record.load(args.hand.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, deal_record.DealRecordError) as error:
        sys.stderr.write(f"{args.hand}: cannot verify: {error}\n")
        return 2
    published = args.commitment or record.commitment
    problems = verify(record.seed, record.contributions, published, record.dealt)
    if args.commitment and args.commitment.lower() != record.commitment.lower():
        problems.insert(0, f"the file's commitment {record.commitment} is not the published {args.commitment}")
    out = sys.stdout
    out.write(f"hand {record.hand_id}\n")
    out.write(f"  seed          {record.seed}\n")
    out.write(f"  contributions {json.dumps(list(record.contributions))}\n")
    out.write(f"  commitment    {published} ({'given' if args.commitment else 'from the file'})\n")
    for source, cards in record.dealt.items():
        out.write(f"  checked       {len(cards)} cards of {source}\n")
    if problems:
        for problem in problems:
            out.write(f"MISMATCH: {problem}\n")
        return 1
    out.write("OK: the seed matches the commitment and every card follows from the seed and the contributions\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
