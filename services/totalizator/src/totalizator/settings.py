"""Settings of the totalizator service: the common fields under the `TOTALIZATOR_` prefix (docs/configuration.md)."""

from platform_kit.settings import ServiceSettings, service_config
from pydantic import Field


class Settings(ServiceSettings):
    model_config = service_config("totalizator")
    service_name: str = "totalizator"
    tick_interval_seconds: float = Field(
        1.0,
        gt=0,
        description="How often the draw clock runs: closes draws at their closing time, publishes final counts, "
        "folds live statistics, retries unconfirmed stakes and resumes wallet transfers.",
    )
    statistics_interval_seconds: float = Field(
        1.0, gt=0, description="Live statistics of a draw are refreshed and published at most this often (T-2.6)."
    )
    stake_retry_seconds: float = Field(
        10.0,
        ge=0,
        description="A coupon whose stake the wallet has not confirmed after this long is retried by the clock, "
        "with the same idempotency key.",
    )
    wallet_timeout_seconds: float = Field(10.0, gt=0, description="Timeout of one call to the wallet.")
    transfer_concurrency: int = Field(
        8, ge=1, le=64, description="Wallet calls in flight while a draw's payouts or refunds are made."
    )
    stake_concurrency: int = Field(
        16,
        ge=1,
        le=256,
        description="Wallet calls taking coupons' stakes in flight at once per process; the others wait their turn "
        "(at most the wallet timeout, then 503 `payment_pending`): a wallet runs as many at a time as its database "
        "pool has connections, and flooding it only makes its calls time out.",
    )
    intake_writers: int = Field(
        4,
        ge=1,
        le=64,
        description="Transactions writing coupons at once per process, for each step of intake (taking them pending, "
        "recording the wallet's answers): each is a group of the coupons that arrived meanwhile. One alone went at "
        "the pace of its round trips to the database, well below what the database could take (issue 14).",
    )
    intake_in_flight: int = Field(
        256,
        ge=1,
        description="Coupons being placed at once per process; one more is refused at once with 503 `intake_busy` "
        "and Retry-After, nothing written (a retry with the same Idempotency-Key places it).",
    )
    payment_batch_size: int = Field(
        500,
        ge=1,
        le=10_000,
        description="Coupon payouts or refunds (of one draw, kind and currency) made in one wallet call. A draw's "
        "batches are fixed when its settlement or refund is planned, so a change applies to later draws.",
    )
    keep_draw_open: bool | None = Field(
        None,
        description="Keep a draw open for coupons (issue 17): when none is open, the week's draw is created and "
        "announced by the `draw-schedule` administrator — 8 matches of a league round kicking off over the weekend, "
        "bets closing on a Saturday at 13:00 UTC at least two days ahead, in EUR (1.08 USD) and USD at 0.10 a bet. "
        "Unset: on in standalone mode (in-memory bus), off otherwise.",
    )

    def keeps_draw_open(self) -> bool:
        return self.standalone if self.keep_draw_open is None else self.keep_draw_open
