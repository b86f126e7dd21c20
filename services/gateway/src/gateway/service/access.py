"""Refusals for callers reaching outside what they manage."""

from __future__ import annotations

from platform_kit.errors import Forbidden

from gateway.domain.roles import Principal


def require_manages(principal: Principal, concessionaire_id: str) -> None:
    if not principal.manages(concessionaire_id):
        raise Forbidden("not_your_concessionaire", "You may act only for your own concessionaire.")
