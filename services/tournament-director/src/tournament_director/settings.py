"""Settings of the tournament-director service: the common fields under the `TOURNAMENT_DIRECTOR_` prefix
(docs/configuration.md)."""

from platform_kit.settings import ServiceSettings, service_config
from pydantic import Field

from tournament_director.domain.lobby_schedule import DEFAULT_SCHEDULE, LobbyEntry


class Settings(ServiceSettings):
    model_config = service_config("tournament-director")
    service_name: str = "tournament-director"
    tax_rate_bps: int = Field(
        0,
        ge=0,
        le=10_000,
        description="Tax on every entry's full price, in basis points (P-8.7), accrued from the concessionaire's "
        "margin when a tournament finishes; jackpot contributions come from the fee net of it (P-8.6). 0: no accrual.",
    )
    rebuy_offer_seconds: int = Field(
        30, ge=1, description="How long a busted player has to accept a rebuy offer before it counts as declined."
    )
    clock_interval_seconds: float = Field(
        1.0,
        gt=0,
        description="How often the clock loop looks for work: scheduled starts, level changes, lapsed rebuy "
        "offers and wallet calls to drive again.",
    )
    money_retry_seconds: float = Field(
        5.0,
        gt=0,
        description="A wallet call still unanswered after this long is made again, with the same key; a request "
        "still unanswered after this long is taken to have died, and a repeat with its Idempotency-Key runs it again.",
    )
    idempotency_wait_seconds: float = Field(
        5.0,
        gt=0,
        description="How long a repeated request waits for the answer of the same request still running before it "
        "answers 409 idempotency_key_in_flight (repeat it with the same key).",
    )
    keyed_requests_in_flight: int = Field(
        32,
        ge=1,
        description="Requests under an Idempotency-Key (registrations, unregistrations, purchases, cancellations) "
        "run at once per process; one more waits `keyed_requests_wait_seconds`, then 503 `director_busy` and Retry-After, nothing "
        "written (a retry with the same key runs it). A registration takes a database connection five times around "
        "its wallet call: admitting a few times the pool keeps them fast in a rush, where letting all in makes "
        "every one queue for the pool at every step.",
    )
    keyed_requests_wait_seconds: float = Field(
        2.0,
        ge=0,
        description="How long a keyed request past `keyed_requests_in_flight` waits for a place, in the order they "
        "came, before 503 `director_busy` (0: refused at once). Each refusal comes back as a new attempt paid for "
        "in full by the gateway and the director; a short wait turns some of them into one.",
    )
    keyed_request_deadline_seconds: float = Field(
        15.0,
        gt=0,
        description="A request under an Idempotency-Key (registration, unregistration, purchase, cancellation) still "
        "unanswered after this long answers 503 `outcome_pending` with Retry-After and runs on to its end; the same "
        "request with the same key learns its outcome, carried out once. Below the gateway's and clients' 30 s "
        "timeout, which would otherwise answer 504 with the money perhaps moved.",
    )
    wallet_timeout_seconds: float = Field(10.0, gt=0, description="Timeout of one call to the wallet or rating.")
    action_seconds: int = Field(20, ge=1, description="A player's time to act at the director's tables.")
    time_bank_seconds: int = Field(60, ge=0, description="Each player's time bank at the director's tables.")
    lobby_schedule: list[LobbyEntry] | None = Field(
        None,
        description="What the lobby always offers (issue 15): a JSON list of {key, body, every_minutes?}, where body "
        "is a creation body ({template, name, buy_in, ...}); a sit'n'go entry is opened as a recurring sit'n'go "
        "(re-opened each time it fills), a scheduled one has its next occurrence registering, one every "
        "`every_minutes` from 00:00 UTC. Unset: two sit'n'gos and an hourly tournament in standalone mode (in-memory "
        "bus), nothing otherwise; [] opens nothing. Staff add entries from the console besides these "
        "(/api/v1/lobby-schedule).",
    )

    def lobby_entries(self) -> tuple[LobbyEntry, ...]:
        if self.lobby_schedule is not None:
            return tuple(self.lobby_schedule)
        return DEFAULT_SCHEDULE if self.standalone else ()
