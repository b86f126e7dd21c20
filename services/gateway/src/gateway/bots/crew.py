"""A crew of bots: bot accounts signed up with the demo concessionaire (whose welcome credit pays their buy-ins),
reused once idle, sent to fill a tournament's free seats and play it out."""

from __future__ import annotations

import asyncio
import logging
import random
import secrets

import httpx

from gateway.bots.api import ApiError, Credentials, PublicApi
from gateway.bots.player import BotPlayer, Outcome
from gateway.domain.bot_names import BOT_PREFIX, house_signature

log = logging.getLogger(__name__)

NO_MONEY = frozenset({"insufficient_funds", "unknown_account"})
CREDIT_WAIT_SECONDS = 15.0


class BotCrew:
    def __init__(
        self,
        base_url: str,
        rng: random.Random,
        *,
        house_key: str,
        think_seconds: tuple[float, float] = (0.2, 1.0),
        concessionaire: str = "demo",
    ) -> None:
        """`house_key`: the gateway's internal token, which signs the bots' nicknames (their prefix is the
        house's own: gateway.domain.bot_names)."""
        self._base_url = base_url
        self._rng = rng
        self._house_key = house_key
        self._think = think_seconds
        self._concessionaire = concessionaire
        self._idle: list[Credentials] = []
        self._http = httpx.AsyncClient(base_url=base_url.rstrip("/"), timeout=15.0)

    async def aclose(self) -> None:
        await self._http.aclose()

    async def fill(self, tournament_id: str, seats: int) -> list[Outcome]:
        """Register `seats` bots for the tournament and play it; returns what each bot achieved."""
        results = await asyncio.gather(*(self._one(tournament_id) for _ in range(seats)), return_exceptions=True)
        outcomes = []
        for result in results:
            if isinstance(result, BaseException):
                log.warning("a bot could not play: %s", result)
            elif result is not None:
                outcomes.append(result)
        return outcomes

    async def _one(self, tournament_id: str) -> Outcome:
        bot, credentials = await self._enlist()
        try:
            await bot.register(tournament_id)
        except ApiError as error:
            if error.code not in NO_MONEY:
                self._idle.append(credentials)
                raise
            bot, credentials = await self._enlist(fresh=True)  # an old bot spent its credit: a new one has it all
            await bot.register(tournament_id)
        try:
            return await bot.play(tournament_id)
        finally:
            self._idle.append(credentials)

    async def _enlist(self, *, fresh: bool = False) -> tuple[BotPlayer, Credentials]:
        api = PublicApi(self._base_url, http=self._http)
        if self._idle and not fresh:
            credentials = self._idle.pop()
            await api.log_in(credentials)
        else:
            credentials = await self._sign_up(api)
        return BotPlayer(api, random.Random(self._rng.getrandbits(64)), think_seconds=self._think), credentials

    async def _sign_up(self, api: PublicApi) -> Credentials:
        for _ in range(5):
            credentials = Credentials(f"{BOT_PREFIX}{self._rng.getrandbits(32):08x}", secrets.token_hex(12))
            signature = house_signature(self._house_key, credentials.nickname)
            try:
                await api.sign_up(credentials, concessionaire=self._concessionaire, house_signature=signature)
            except ApiError as error:
                if error.code not in ("nickname_taken", "email_taken", "already_registered"):
                    raise
                continue
            await _credit_arrived(api)
            return credentials
        raise RuntimeError("could not find a free bot nickname")


async def _credit_arrived(api: PublicApi) -> None:
    """The welcome credit is paid in just after sign-up: wait for it (a while at most, then try anyway)."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + CREDIT_WAIT_SECONDS
    while loop.time() < deadline:
        found = await api.call("GET", f"/players/{api.player_id}/accounts")
        if any(account.get("available", 0) > 0 for account in found.get("accounts", [])):
            return
        await asyncio.sleep(0.25)
