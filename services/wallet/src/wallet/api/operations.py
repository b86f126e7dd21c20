"""The routes of the commands other services call, made from their declarations in the kit
(platform_kit.wallet_operations): the path, the body's schema, the name, the tag, the description and the status
come from there; the wallet gives only what the command does with the body (its handler)."""

from __future__ import annotations

import inspect
from collections.abc import Awaitable, Callable
from typing import Any

from fastapi import APIRouter
from fastapi.responses import JSONResponse
from platform_kit.wallet_operations import WalletBody, WalletOperation
from sqlalchemy.ext.asyncio import AsyncSession

from wallet.adapters.ledger import PostedOperation
from wallet.api.context import CommandContext, Grouped, Internal
from wallet.api.schemas import OperationOut

Posted = PostedOperation
Handler = Callable[..., Awaitable[PostedOperation]]
"""`handler(command, session, body, **ids)`: posts the operation in the command's transaction."""
Grouping = Callable[..., Grouped]
"""`grouping(command, body, **ids)`: the command as the group commit takes it (CommandContext.post_grouped)."""


def declared(spec: WalletOperation[Any], router: APIRouter) -> dict[str, Any]:
    """The arguments of `router.post` for a route written by hand (its handler names its own parameters, the
    body's schema as `spec.body`): the path, the name, the tag, the description and the status declared."""
    return {
        "path": spec.path.removeprefix(router.prefix),
        "name": spec.name,
        "tags": [spec.tag],
        "description": inspect.cleandoc(spec.description or ""),
        "status_code": spec.status,
    }


def operation_routes(router: APIRouter) -> Callable[..., Callable[[Handler], Handler]]:
    """`@posts(SPEC)` on a handler adds SPEC's route to `router`: POST, answered 201 with the operation, run
    once per Idempotency-Key (CommandContext.post_operation)."""

    def posts(spec: WalletOperation[Any], *, grouped: Grouping | None = None) -> Callable[[Handler], Handler]:
        """`grouped`: the command has a batch form, and runs through the group commit."""

        def register(handler: Handler) -> Handler:
            async def endpoint(command: CommandContext, body: WalletBody, **ids: str) -> JSONResponse:
                def posting(session: AsyncSession) -> Awaitable[Posted]:
                    return handler(command, session, body, **ids)

                if grouped is not None:
                    return await command.post_grouped(body, grouped(command, body, **ids), posting)
                return await command.post_operation(body, posting)

            # FastAPI reads what to parse from the signature: the path's ids, the body's model, the command.
            parameters = [inspect.Parameter(name, inspect.Parameter.KEYWORD_ONLY, annotation=str) for name in spec.ids]
            parameters.append(inspect.Parameter("body", inspect.Parameter.KEYWORD_ONLY, annotation=spec.body))
            parameters.append(inspect.Parameter("command", inspect.Parameter.KEYWORD_ONLY, annotation=Internal))
            endpoint.__signature__ = inspect.Signature(parameters, return_annotation=JSONResponse)  # type: ignore[attr-defined]
            router.add_api_route(
                endpoint=endpoint, methods=["POST"], response_model=OperationOut, **declared(spec, router)
            )
            return handler

        return register

    return posts
