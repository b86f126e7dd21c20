"""Partner webhooks put together for one gateway instance: the URL and retry policies from the settings, the
consumers of the platform events partners subscribe to, the dispatcher in the background, and the use cases the
routes call (`Services.webhooks`, bootstrap.py)."""

from __future__ import annotations

import random
from datetime import timedelta

import httpx
from platform_kit.runtime import ServiceRuntime

from gateway.domain.webhook_events import SOURCE_TYPES
from gateway.domain.webhook_retry import RetryPolicy
from gateway.domain.webhook_urls import UrlPolicy
from gateway.service.context import Context
from gateway.service.webhooks import Webhooks
from gateway.service.webhooks_dispatcher import WebhookDispatcher
from gateway.service.webhooks_intake import WebhookIntake
from gateway.service.webhooks_sender import Resolver, WebhookSender, resolve
from gateway.settings import Settings


def wire_webhooks(
    runtime: ServiceRuntime,
    settings: Settings,
    context: Context,
    *,
    transport: httpx.AsyncBaseTransport | None = None,
    jitter: random.Random | None = None,
    resolver: Resolver = resolve,
) -> Webhooks:
    """`transport`, `jitter` and `resolver` replace the network, the randomness and DNS in tests."""
    urls = UrlPolicy(allow_http=settings.webhook_http_on, allow_private=settings.webhook_private_addresses_on)
    retry = RetryPolicy(
        base=timedelta(seconds=settings.webhook_retry_base_seconds),
        cap=timedelta(seconds=max(settings.webhook_retry_cap_seconds, settings.webhook_retry_base_seconds)),
        period=timedelta(seconds=settings.webhook_retry_period_seconds),
        disable_after=timedelta(seconds=settings.webhook_disable_after_seconds),
    )
    sender = WebhookSender(urls, timeout=settings.webhook_timeout_seconds, transport=transport, resolver=resolver)
    dispatcher = WebhookDispatcher(
        runtime.units,
        context.clock,
        sender,
        retry,
        (jitter or random.SystemRandom()).random,
        poll_seconds=settings.webhook_poll_seconds,
        # longer than any attempt: a lease left by a crashed instance frees the endpoint after it
        lease=timedelta(seconds=2 * settings.webhook_timeout_seconds + 5),
    )
    intake = WebhookIntake(context.clock, dispatcher.wake)
    for event_type in SOURCE_TYPES:
        runtime.on(event_type, intake.consume)
    runtime.in_background(dispatcher.run)
    return Webhooks(context, urls, dispatcher.wake)
