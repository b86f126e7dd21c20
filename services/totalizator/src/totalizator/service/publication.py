"""The published files (T-8) and the settlement report (T-8.4): public once the draw's count is final.

The files are written from the database on request by the same writers the verifier's readers check, so
`totalizator verify --draw draw-<id>.json --bets bets-<id>.csv` recomputes exactly what the service paid.
"""

from __future__ import annotations

import io
import json
from typing import Any

from platform_kit.errors import Conflict

from totalizator.adapters import coupons
from totalizator.adapters.draws import DrawRecord
from totalizator.domain import Draw
from totalizator.files import bets_file_name, draw_file_name, draw_to_json, write_bets
from totalizator.service.context import Context
from totalizator.service.queries import public_draw


class Publication:
    def __init__(self, context: Context) -> None:
        self.context = context

    async def draw_file(self, draw_id: str) -> tuple[str, dict[str, Any]]:
        """`draw-<id>.json` (T-8.2): the draw as announced, with the results and voids recorded so far."""
        async with self.context.units.unit() as uow:
            record = await public_draw(uow.session, draw_id)
            _require_final(record)
            draw = await self.context.draws.draw(uow.session, record)
        return draw_file_name(draw_id), draw_to_json(draw)

    async def bets_file(self, draw_id: str) -> tuple[str, str]:
        """`bets-<id>.csv` (T-8.3): every paid-for coupon, in acceptance order, no personal data."""
        async with self.context.units.unit() as uow:
            record = await public_draw(uow.session, draw_id)
            _require_final(record)
            draw: Draw = await self.context.draws.draw(uow.session, record)
            accepted = await coupons.accepted_with_players(uow.session, draw_id)
        out = io.StringIO()
        write_bets(draw, (coupon for coupon, _ in accepted), out)
        return bets_file_name(draw_id), out.getvalue()

    async def settlement_report(self, draw_id: str) -> dict[str, Any]:
        """The verifier's report (T-8.4) of the draw's settlement or refund, once it has been computed."""
        async with self.context.units.unit() as uow:
            record = await public_draw(uow.session, draw_id)
        if record.settlement_report is None:
            raise Conflict("not_settled", f"Draw {draw_id} has not been settled yet.", draw_status=str(record.status))
        report: dict[str, Any] = json.loads(record.settlement_report)
        return report


def _require_final(record: DrawRecord) -> None:
    if not record.is_final:
        raise Conflict(
            "files_not_published",
            f"The files of draw {record.draw_id} are published once bets are closed and counted (T-2.6, T-8.1).",
            draw_status=str(record.status),
        )
