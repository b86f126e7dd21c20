"""Partner webhooks of one concessionaire (issue 16): its operators, the network's administrators and its own
partner API keys register endpoints, choose event types, rotate secrets, read the delivery log, replay and ping.
The scheme a partner verifies is in docs/partners.md."""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Annotated, Any, Literal

from fastapi import APIRouter, Depends, FastAPI, Header, Query, Request, Response, status
from pydantic import AwareDatetime, BaseModel, ConfigDict, Field

from gateway.adapters.webhook_store import DeliveryRecord, EndpointRecord, NoticeRecord
from gateway.api.access import allow
from gateway.api.problem_answers import refusals
from gateway.api.v1 import API_V1
from gateway.domain.roles import Principal, Role
from gateway.domain.webhook_events import DESCRIPTIONS, PING, PartnerEventType
from gateway.service.webhooks import EndpointChange, Webhooks, WithSecret

router = APIRouter(prefix=API_V1 + "/concessionaires/{concessionaire_id}", tags=["webhooks"])

Manager = Annotated[Principal, Depends(allow(Role.OPERATOR, Role.ADMIN, Role.PARTNER))]
TYPES_DOC = "Event types: " + "; ".join(f"`{t}`: {d}" for t, d in DESCRIPTIONS.items())
URL_REFUSALS = refusals(
    {
        422: "Invalid request (`validation_failed`); the URL is not https (`webhook_url_not_https`), names a "
        "loopback or private address (`webhook_url_private`) or is malformed (`webhook_url_invalid`); "
        "no event type (`webhook_event_types_empty`)"
    }
)


def webhooks_of(request: Request) -> Webhooks:
    webhooks: Webhooks = request.app.state.services.webhooks
    return webhooks


# -- bodies ------------------------------------------------------------------------------------------------------
class NewEndpoint(BaseModel):
    model_config = ConfigDict(
        json_schema_extra={
            "examples": [
                {
                    "url": "https://partner.example/hooks/poker",
                    "event_types": ["player.registered", "payout.posted"],
                    "description": "booking system",
                }
            ]
        }
    )
    url: str = Field(max_length=2000, description="An https:// URL on a public host.")
    event_types: list[PartnerEventType] = Field(min_length=1, max_length=20, description=TYPES_DOC)
    description: str = Field("", max_length=200)


class EndpointPatch(BaseModel):
    url: str | None = Field(None, max_length=2000)
    event_types: list[PartnerEventType] | None = Field(None, min_length=1, max_length=20)
    description: str | None = Field(None, max_length=200)
    enabled: bool | None = Field(None, description="false pauses deliveries (they wait); true resumes them in order.")


class Rotation(BaseModel):
    overlap_seconds: int = Field(
        86_400, ge=0, le=7 * 86_400, description="How long the previous secret keeps signing beside the new one."
    )


class ReplayRange(BaseModel):
    since: AwareDatetime = Field(description="Deliveries queued from this instant (included) …")
    until: AwareDatetime = Field(description="… to this one (excluded).")


class EndpointView(BaseModel):
    id: str
    url: str
    event_types: list[str]
    description: str
    enabled: bool
    disabled_reason: Literal["by_request", "failing"] | None = Field(
        None, description="`failing`: the gateway disabled it after failing for long (a notice tells when)."
    )
    disabled_at: datetime | None
    failing_since: datetime | None = Field(description="The first failed attempt since the last success.")
    previous_secret_until: datetime | None = Field(description="The previous secret signs too until then.")
    created_at: datetime

    @classmethod
    def of(cls, record: EndpointRecord) -> EndpointView:
        return cls(
            id=record.id,
            url=record.url,
            event_types=list(record.event_types),
            description=record.description,
            enabled=record.enabled,
            disabled_reason=record.disabled_reason,
            disabled_at=record.disabled_at,
            failing_since=record.failing_since,
            previous_secret_until=record.previous_secret_until if record.previous_secret else None,
            created_at=record.created_at,
        )


class EndpointWithSecret(EndpointView):
    secret: str = Field(description="The signing secret (`whsec_…`), shown this once only: store it now.")

    @classmethod
    def made(cls, made: WithSecret) -> EndpointWithSecret:
        return cls(**EndpointView.of(made.endpoint).model_dump(), secret=made.secret)


class DeliveryView(BaseModel):
    id: int = Field(description="The delivery's number, increasing in the endpoint's order.")
    event_id: str = Field(description="`Webhook-Id`: the partner deduplicates on it.")
    event_type: str
    status: Literal["pending", "delivered", "failed"]
    attempts: int
    created_at: datetime
    next_attempt_at: datetime | None
    last_attempt_at: datetime | None
    last_status_code: int | None = Field(description="The endpoint's last HTTP answer, if any.")
    last_error: str | None = Field(description="Why the last attempt got no answer (timeout, connection …).")
    delivered_at: datetime | None

    @classmethod
    def of(cls, record: DeliveryRecord) -> DeliveryView:
        return cls(
            id=record.seq,
            event_id=record.event_id,
            event_type=record.event_type,
            status=record.status,
            attempts=record.attempts,
            created_at=record.created_at,
            next_attempt_at=record.next_attempt_at if record.status == "pending" else None,
            last_attempt_at=record.last_attempt_at,
            last_status_code=record.last_status_code,
            last_error=record.last_error,
            delivered_at=record.delivered_at,
        )


class ReplayView(BaseModel):
    queued: int = Field(description="How many deliveries will be sent again.")


class NoticeView(BaseModel):
    id: int
    endpoint_id: str
    kind: Literal["endpoint_disabled"]
    message_en: str
    message_it: str
    created_at: datetime

    @classmethod
    def of(cls, record: NoticeRecord) -> NoticeView:
        return cls(**{name: getattr(record, name) for name in cls.model_fields})


# -- routes ------------------------------------------------------------------------------------------------------
ENDPOINTS = "/webhooks"
ONE = "/webhooks/{endpoint_id}"


@router.post(
    ENDPOINTS, status_code=status.HTTP_201_CREATED, summary="Register a webhook endpoint", responses=URL_REFUSALS
)
async def create(concessionaire_id: str, body: NewEndpoint, request: Request, by: Manager) -> EndpointWithSecret:
    made = await webhooks_of(request).create(by, concessionaire_id, body.url, body.event_types, body.description)
    return EndpointWithSecret.made(made)


@router.get(ENDPOINTS, summary="The concessionaire's webhook endpoints (without secrets)")
async def listing(concessionaire_id: str, request: Request, by: Manager) -> list[EndpointView]:
    return [EndpointView.of(e) for e in await webhooks_of(request).of_concessionaire(by, concessionaire_id)]


@router.get(ONE, summary="One webhook endpoint")
async def read(concessionaire_id: str, endpoint_id: str, request: Request, by: Manager) -> EndpointView:
    return EndpointView.of(await webhooks_of(request).get(by, concessionaire_id, endpoint_id))


@router.patch(ONE, summary="Change, disable or enable an endpoint", responses=URL_REFUSALS)
async def change(
    concessionaire_id: str, endpoint_id: str, body: EndpointPatch, request: Request, by: Manager
) -> EndpointView:
    patch = EndpointChange(body.url, body.event_types, body.description, body.enabled)
    return EndpointView.of(await webhooks_of(request).change(by, concessionaire_id, endpoint_id, patch))


@router.delete(ONE, status_code=status.HTTP_204_NO_CONTENT, summary="Delete an endpoint and its delivery log")
async def delete(concessionaire_id: str, endpoint_id: str, request: Request, by: Manager) -> Response:
    await webhooks_of(request).delete(by, concessionaire_id, endpoint_id)
    return Response(status_code=status.HTTP_204_NO_CONTENT)


@router.post(
    f"{ONE}/secret-rotation",
    summary="Rotate the signing secret",
    description="The answer holds the new secret, shown this once; the previous one signs too during the overlap.",
)
async def rotate(
    concessionaire_id: str, endpoint_id: str, body: Rotation, request: Request, by: Manager
) -> EndpointWithSecret:
    overlap = timedelta(seconds=body.overlap_seconds)
    return EndpointWithSecret.made(await webhooks_of(request).rotate(by, concessionaire_id, endpoint_id, overlap))


@router.get(f"{ONE}/deliveries", summary="The endpoint's delivery log, newest first")
async def deliveries(
    concessionaire_id: str,
    endpoint_id: str,
    request: Request,
    by: Manager,
    status_: Annotated[Literal["pending", "delivered", "failed"] | None, Query(alias="status")] = None,
    limit: Annotated[int, Query(ge=1, le=500)] = 100,
    before: Annotated[int | None, Query(ge=1, description="Page back: deliveries numbered below this.")] = None,
) -> list[DeliveryView]:
    found = await webhooks_of(request).deliveries(
        by, concessionaire_id, endpoint_id, status=status_, limit=limit, before=before
    )
    return [DeliveryView.of(d) for d in found]


@router.post(
    f"{ONE}/deliveries/{{delivery_id}}/replay",
    status_code=status.HTTP_202_ACCEPTED,
    summary="Send one delivery again (same event id)",
)
async def replay_one(
    concessionaire_id: str, endpoint_id: str, delivery_id: int, request: Request, by: Manager
) -> DeliveryView:
    return DeliveryView.of(await webhooks_of(request).replay_one(by, concessionaire_id, endpoint_id, delivery_id))


@router.post(
    f"{ONE}/replays",
    status_code=status.HTTP_202_ACCEPTED,
    summary="Send again every delivery queued in a time range, in order",
    responses=refusals(
        {422: "Invalid request (`validation_failed`), or `until` not after `since` (`replay_range_empty`)"}
    ),
)
async def replay_range(
    concessionaire_id: str, endpoint_id: str, body: ReplayRange, request: Request, by: Manager
) -> ReplayView:
    queued = await webhooks_of(request).replay_range(by, concessionaire_id, endpoint_id, body.since, body.until)
    return ReplayView(queued=queued)


@router.post(f"{ONE}/ping", status_code=status.HTTP_202_ACCEPTED, summary="Queue a signed `webhook.ping` delivery")
async def ping(concessionaire_id: str, endpoint_id: str, request: Request, by: Manager) -> DeliveryView:
    return DeliveryView.of(await webhooks_of(request).ping(by, concessionaire_id, endpoint_id))


@router.get("/webhook-notices", summary="What the gateway told the partner (an endpoint disabled for failing)")
async def notices(
    concessionaire_id: str, request: Request, by: Manager, limit: Annotated[int, Query(ge=1, le=200)] = 50
) -> list[NoticeView]:
    return [NoticeView.of(n) for n in await webhooks_of(request).notices(by, concessionaire_id, limit)]


# -- what the partner receives: the `webhooks` of the OpenAPI document -------------------------------------------
class PartnerDelivery(BaseModel):
    """The body of every delivery; verify `Webhook-Signature` over its raw bytes first (docs/partners.md)."""

    id: str = Field(description="The event id, as in `Webhook-Id`: deduplicate on it.")
    type: str
    occurred_at: datetime = Field(description="When the platform event happened.")
    concessionaire_id: str
    data: dict[str, Any] = Field(description="The event's fields, cut to the concessionaire's own players.")


partner_callbacks = APIRouter()


def _describe_callback(event_type: str, description: str) -> None:
    async def delivery(
        body: PartnerDelivery,
        webhook_id: Annotated[str, Header(alias="Webhook-Id")],
        webhook_type: Annotated[str, Header(alias="Webhook-Type")],
        webhook_timestamp: Annotated[int, Header(alias="Webhook-Timestamp", description="Unix seconds.")],
        webhook_signature: Annotated[
            str, Header(alias="Webhook-Signature", description="`t=<timestamp>,v1=<hex>[,v1=<hex>]`")
        ],
    ) -> None:
        """Documentation only: the partner serves this."""

    partner_callbacks.add_api_route(
        event_type,
        delivery,
        methods=["POST"],
        summary=f"`{event_type}`",
        description=f"{description} Answer 2xx within the timeout; anything else is retried.",
        operation_id=f"partner_webhook_{event_type.replace('.', '_')}",
        responses={200: {"description": "Received (or already received: same `Webhook-Id`)."}},
    )


CALLBACKS = {str(t): d for t, d in DESCRIPTIONS.items()} | {PING: "A test delivery asked for with `POST …/ping`."}
for _type, _description in CALLBACKS.items():
    _describe_callback(_type, _description)


def document_webhooks(app: FastAPI) -> None:
    """The deliveries a partner receives, in the OpenAPI document."""
    app.webhooks.include_router(partner_callbacks)
