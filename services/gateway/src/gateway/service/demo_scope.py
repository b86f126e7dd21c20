"""Play money stays in play: the players of the demo concessionaire are paid a welcome credit nobody paid in
(service/demo_credit.py), so outside standalone mode — where real players' money is at stake — they may buy into
the demo concessionaire's own tournaments only, and may not bet: the totalizator's pools are the whole network's.

Standalone mode (the in-memory bus) is a trial on one machine with no real money: nothing is refused there. The
rule holds whether or not GATEWAY_DEMO_CONCESSIONAIRE is still on, since a concessionaire once created keeps its
players and their credit.

Whether a player's concessionaire is the demo one is read once per concessionaire and kept: a concessionaire's
id and code never change, and a network has a handful. Looking the demo concessionaire up by its code instead
read the database at every registration of a network without one (4% of a gateway's busy time in a 3,000-player
registration rush, py-spy).
"""

from __future__ import annotations

from platform_kit.errors import Forbidden
from platform_kit.unit_of_work import UnitsOfWork

from gateway.adapters import identity_store
from gateway.adapters.identity_store import PlayerRecord
from gateway.adapters.organisers import tournament_organiser
from gateway.adapters.service_client import ServiceClient
from gateway.service.concessionaires import DEMO_CODE

CODE = "demo_player_real_pool"


class DemoScope:
    def __init__(self, units: UnitsOfWork, director: ServiceClient, *, standalone: bool) -> None:
        self._units = units
        self._director = director
        self._standalone = standalone
        self._is_demo: dict[str, bool] = {}  # concessionaire id -> whether it is the demo concessionaire

    async def refuse_registration(self, player: PlayerRecord, tournament_id: str) -> None:
        """Before `player` is registered for the tournament, by themself or by staff."""
        if not await self._plays_for_fun(player):
            return
        # A missing tournament answers the director's 404 as it came.
        if await tournament_organiser(self._director, tournament_id) != player.concessionaire_id:
            raise Forbidden(
                CODE,
                "Players of the demo concessionaire play with play money: they may register only for the demo "
                "concessionaire's own tournaments.",
                tournament_id=tournament_id,
            )

    async def refuse_coupon(self, player: PlayerRecord) -> None:
        if await self._plays_for_fun(player):
            raise Forbidden(
                CODE,
                "Players of the demo concessionaire play with play money: they may not bet in the network's "
                "totalizator pools.",
            )

    async def _plays_for_fun(self, player: PlayerRecord) -> bool:
        if self._standalone:
            return False
        known = self._is_demo.get(player.concessionaire_id)
        if known is None:
            async with self._units.reading() as session:
                concessionaire = await identity_store.get_concessionaire(session, player.concessionaire_id)
            known = concessionaire is not None and concessionaire.code == DEMO_CODE
            self._is_demo[player.concessionaire_id] = known
        return known
