"""At most so many HTTP requests in flight in a process: one more waits a moment for a place, then is answered 503
with Retry-After before anything of it is read (platform_kit.admission: the count, the wait, the refusal).

Used at the platform's edge (the gateway), as a backstop. Without it a flood is taken in whole: every request
shares the event loop with all the others, and they slow down together until clients time out without learning
what became of their requests (a 3,000-player registration rush: 496 time-outs, issue 14). The bound is set
high: requests mostly wait on the services behind, which admit what they can serve, and a tight bound here
refuses work the platform could do — every refusal comes back and pays the gateway's whole cost again (at 64 a
totalizator closing rush took fewer coupons than with no bound at all).

Invariant: a refused request has done nothing — not even its body has been read, its route not run, so a retry
(with the same Idempotency-Key or without) is a new request. Health, readiness and metrics are never refused
(an overloaded process is alive, and its metrics are how an operator sees why), nor are WebSocket handshakes (a
socket is long-lived, not a request: the gateway bounds its sockets itself). A request holds its place until its
answer is sent, also when it fails (the admission releases it in `finally`).
"""

from __future__ import annotations

from collections.abc import Collection
from contextlib import AsyncExitStack
from dataclasses import dataclass

from starlette.types import ASGIApp, Receive, Scope, Send

from platform_kit.admission import Admission
from platform_kit.errors import Unavailable, problem_response

__all__ = ["RequestAdmission", "RequestAdmissionMiddleware"]


@dataclass(frozen=True, slots=True)
class RequestAdmission:
    """The requests bounded: those under the path prefix `under` (the gateway: its API, not its web client's
    files, which a browser does not retry), health, readiness and metrics always excepted."""

    admission: Admission
    under: str = "/"


class RequestAdmissionMiddleware:
    def __init__(self, app: ASGIApp, bound: RequestAdmission, exempt: Collection[str]) -> None:
        self.app = app
        self.admission = bound.admission
        self.under = bound.under
        self.exempt = frozenset(exempt)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        path = scope.get("path", "")
        if scope["type"] != "http" or not path.startswith(self.under) or path in self.exempt:
            await self.app(scope, receive, send)
            return
        async with AsyncExitStack() as place:
            try:
                await place.enter_async_context(self.admission.admit())
            except Unavailable as refusal:
                await problem_response(refusal)(scope, receive, send)
                return
            await self.app(scope, receive, send)
