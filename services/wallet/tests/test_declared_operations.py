"""Every command other services call is declared once, in the kit (platform_kit.wallet_operations): the wallet's
route is the declaration's path, name, status and body schema, and the kit's names of account kinds are the
ledger's."""

from __future__ import annotations

from typing import Any

from fastapi.routing import APIRoute
from platform_kit import wallet_operations as wo
from wallet.api.internal import router
from wallet.domain.accounts import AccountKind

DECLARED = [value for value in vars(wo).values() if isinstance(value, wo.WalletOperation)]


def _route(spec: wo.WalletOperation[Any]) -> APIRoute:
    [route] = [r for r in router.routes if isinstance(r, APIRoute) and r.path == spec.path and "POST" in r.methods]
    return route


def test_each_declared_operation_is_the_wallets_route_as_declared() -> None:
    assert {spec.name for spec in DECLARED} >= {"open_player_account", "create_hold", "post_hold", "void_hold"}
    for spec in DECLARED:
        route = _route(spec)
        body = None if route.body_field is None else route.body_field.field_info.annotation
        assert (route.name, route.status_code, route.tags) == (spec.name, spec.status, [spec.tag])
        assert tuple(param.name for param in route.dependant.path_params) == spec.ids
        # A hold's post may come without a body (all of it); a void takes none.
        assert body is spec.body is None or body in (spec.body, spec.body | None)


def test_a_request_is_the_declared_path_with_its_ids_as_segments_and_no_body_as_empty() -> None:
    held = wo.POST_HOLD.request(wo.HoldPostIn.model_construct(amount=300), hold_id=7)
    assert (held.path, held.body) == ("/internal/v1/holds/7/post", {"amount": 300})
    assert wo.VOID_HOLD.request(None, hold_id=7) == wo.WalletRequest("/internal/v1/holds/7/void", {})
    opened = wo.OPEN_ACCOUNT.request(
        wo.OpenAccountIn.model_construct(concessionaire_id="c1", currency="EUR"), player_id="a/b"
    )
    assert opened.path == "/internal/v1/players/a%2Fb/accounts"


def test_the_kits_account_kinds_are_the_ledgers() -> None:
    assert {str(kind) for kind in wo.AccountKind} == {str(kind) for kind in AccountKind}
