"""The services' logs of a run (JSON lines, one file per service): what they warned about or failed at, tallied,
for the summary and for failure messages — a stuck tournament is explained by its director's warnings."""

from __future__ import annotations

import json
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

NOTABLE = frozenset({"warning", "error", "critical"})


@dataclass(frozen=True)
class Notable:
    service: str
    level: str
    message: str
    detail: str  # the line's own fields beyond the message (reason, error, key …), for matching known causes


def notable_lines(run_dir: Path) -> list[Notable]:
    found = []
    for path in sorted(run_dir.glob("*.log")):
        for line in path.read_text(errors="replace").splitlines():
            if not line.startswith("{"):
                continue  # the harness's start markers, or a line a crash cut short
            try:
                record = json.loads(line)
            except ValueError:
                continue
            if str(record.get("level", "")).lower() in NOTABLE:
                extra = {k: v for k, v in record.items() if k not in ("ts", "level", "service", "logger", "message")}
                found.append(Notable(path.stem, record["level"].lower(), record.get("message", ""), json.dumps(extra)))
    return found


def tally(lines: list[Notable], top: int = 25) -> list[str]:
    """`"<count> × <service> <level>: <message>"`, most frequent first."""
    counts = Counter((line.service, line.level, line.message[:160]) for line in lines)
    return [f"{n} × {service} {level}: {message}" for (service, level, message), n in counts.most_common(top)]
