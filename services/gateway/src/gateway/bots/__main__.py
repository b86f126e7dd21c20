"""`python -m gateway.bots --base-url http://127.0.0.1:8000 --players 5 --tournament <id|auto>`

Signs up (or reuses) `--players` bots with the demo concessionaire, registers them for the tournament and plays
it out with random legal actions. `auto` picks the sit'n'go still registering with the most players (so the
bots join whoever waits); when there is none, it logs in as staff (`--staff-email`/`--staff-password`, the
development administrator by default) and creates one from a template for the bots plus one seat for you.
The bots' `Bot_` nicknames are reserved for the house: `--house-key` is the gateway's internal token that signs
them (GATEWAY_INTERNAL_TOKEN by default).
"""

from __future__ import annotations

import argparse
import asyncio
import logging
import random
import sys
from typing import Any

from gateway.bots.api import PublicApi
from gateway.bots.crew import BotCrew
from gateway.settings import Settings

log = logging.getLogger("gateway.bots")

DEV_STAFF = ("admin@example.com", "admin-dev-password")
# Template names the director is expected to offer, by table size (the first one found is used).
TEMPLATES = {2: ("heads_up_sit_and_go", "heads-up"), 6: ("six_max_sit_and_go", "6-max"), 9: ("nine_max_sit_and_go",)}


async def pick_sit_and_go(api: PublicApi) -> dict[str, Any] | None:
    """The registering sit'n'go with the most players that still has a seat."""
    listing = await api.call("GET", "/tournaments", params={"status": "registering", "kind": "sit_and_go"})
    open_ = [t for t in listing if t.get("registered", 0) < t.get("max_players", 0)]
    return max(open_, key=lambda t: t.get("registered", 0), default=None)


def template_names(answer: Any) -> list[str]:
    """The director's template list, whether a mapping by name or a list of named definitions."""
    if isinstance(answer, dict):
        answer = answer.get("templates", answer)
    if isinstance(answer, dict):
        return [str(name) for name in answer]
    return [str(t.get("template") or t.get("name")) if isinstance(t, dict) else str(t) for t in answer or []]


async def create_sit_and_go(base_url: str, seats: int, staff: tuple[str, str]) -> str:
    """As staff, a sit'n'go from the smallest template with at least `seats` seats."""
    api = PublicApi(base_url)
    try:
        await api.log_in_staff(*staff)
        names = template_names(await api.call("GET", "/tournament-templates"))
        for size, wanted in sorted(TEMPLATES.items()):
            if size >= seats:
                for name in names:
                    if any(w in name for w in wanted):
                        created = await api.call(
                            "POST",
                            "/tournaments",
                            json={
                                "template": name,
                                "name": f"Bots' {size}-seat sit'n'go",
                                "buy_in": {"prize_part_cents": 400, "fee_cents": 100},
                            },
                        )
                        return str(created["tournament_id"])
        raise SystemExit(f"no sit'n'go template with {seats} seats among {names}")
    finally:
        await api.aclose()


async def main(args: argparse.Namespace) -> int:
    rng = random.Random(args.seed)
    crew = BotCrew(args.base_url, rng, house_key=args.house_key, think_seconds=(args.think_min, args.think_max))
    try:
        tournament_id = args.tournament
        if tournament_id == "auto":
            probe = PublicApi(args.base_url)
            try:
                await probe.log_in_staff(*args.staff)
                found = await pick_sit_and_go(probe)
            finally:
                await probe.aclose()
            tournament_id = (
                found["tournament_id"]
                if found
                else await create_sit_and_go(args.base_url, args.players + 1, args.staff)
            )
        log.info("bots join tournament %s", tournament_id)
        outcomes = await crew.fill(tournament_id, args.players)
    finally:
        await crew.aclose()
    for outcome in outcomes:
        print(
            f"tournament {outcome.tournament_id}: position {outcome.position}, prize {outcome.prize_cents} cents, "
            f"{outcome.actions} actions at {len(outcome.tables)} table(s)"
        )
    return 0 if outcomes else 1


def parse(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="python -m gateway.bots", description=__doc__.split("\n\n")[1])
    parser.add_argument("--base-url", default="http://127.0.0.1:8000", help="the gateway")
    parser.add_argument("--players", type=int, default=1, help="how many bots")
    parser.add_argument("--tournament", default="auto", help="a tournament id, or auto")
    parser.add_argument("--seed", type=int, default=None, help="for a repeatable run")
    parser.add_argument("--think-min", type=float, default=0.3, help="seconds before acting, at least")
    parser.add_argument("--think-max", type=float, default=1.5, help="seconds before acting, at most")
    parser.add_argument("--staff-email", default=DEV_STAFF[0])
    parser.add_argument("--staff-password", default=DEV_STAFF[1])
    parser.add_argument(
        "--house-key",
        default=None,
        help="the gateway's internal token, which signs the bots' Bot_ nicknames (default: GATEWAY_INTERNAL_TOKEN "
        "as the gateway reads it)",
    )
    args = parser.parse_args(argv)
    args.staff = (args.staff_email, args.staff_password)
    if args.house_key is None:
        args.house_key = Settings().internal_token
    if args.players < 1:
        parser.error("--players is at least 1")
    return args


if __name__ == "__main__":
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(name)s %(message)s")
    sys.exit(asyncio.run(main(parse())))
