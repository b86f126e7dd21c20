"""The ``table-engine`` command: an argparse program with subcommands.

    uv run table-engine phh replay PATH...

replays PHH files through this engine and prints one JSON object per line, ``{"file": ..., "finishing_stacks":
[...]}`` or ``{"file": ..., "error": "..."}``; the exit status is 1 when any file failed. Other subcommands
(``serve``...) plug in through ``build_parser``'s subparsers.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from pathlib import Path

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


if __name__ == "__main__":
    sys.exit(main())
