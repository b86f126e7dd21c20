"""Which endpoint URLs a partner may register: pure checks (the addresses a name resolves to are checked by the
dispatcher, at each attempt, with `address_allowed`).

HTTPS only, unless plain HTTP is allowed (standalone trials); no credentials or fragment in the URL; and, unless
private addresses are allowed (tests, standalone), no host that is a loopback, private, link-local, multicast,
reserved or unspecified address, nor `localhost`: the gateway must not be made to call into its own network
(server-side request forgery).
"""

from __future__ import annotations

import ipaddress
from dataclasses import dataclass
from urllib.parse import urlsplit

MAX_URL_LENGTH = 2000
_LOCAL_NAMES = ("localhost", "localhost.localdomain")
_LOCAL_SUFFIXES = (".localhost", ".local", ".internal", ".home.arpa")


class EndpointUrlRefused(ValueError):
    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


@dataclass(frozen=True, slots=True)
class UrlPolicy:
    allow_http: bool
    allow_private: bool

    def check(self, url: str) -> str:
        """The URL as registered; raises EndpointUrlRefused with a machine-readable code."""
        if len(url) > MAX_URL_LENGTH:
            raise EndpointUrlRefused("webhook_url_invalid", f"The URL is longer than {MAX_URL_LENGTH} characters.")
        try:
            parts = urlsplit(url)
            parts.port  # noqa: B018 - raises on a malformed port
        except ValueError:
            raise EndpointUrlRefused("webhook_url_invalid", "The URL is malformed.") from None
        allowed_schemes = ("https", "http") if self.allow_http else ("https",)
        if parts.scheme not in allowed_schemes:
            raise EndpointUrlRefused("webhook_url_not_https", "Endpoints must be https:// URLs.")
        if not parts.hostname or parts.username is not None or parts.password is not None or parts.fragment:
            raise EndpointUrlRefused("webhook_url_invalid", "The URL needs a host, and no credentials or fragment.")
        if not self.allow_private and not host_allowed(parts.hostname):
            raise EndpointUrlRefused(
                "webhook_url_private", "The URL names a loopback, private or reserved address; use a public host."
            )
        return url

    def address_allowed(self, address: str) -> bool:
        """May the dispatcher connect to this resolved IP address?"""
        return self.allow_private or _public(address)


def host_allowed(host: str) -> bool:
    name = host.lower().rstrip(".")
    if name in _LOCAL_NAMES or name.endswith(_LOCAL_SUFFIXES):
        return False
    try:
        ipaddress.ip_address(name)
    except ValueError:
        return True  # a name: its addresses are checked when it is called
    return _public(name)


def _public(address: str) -> bool:
    try:
        ip = ipaddress.ip_address(address.split("%", 1)[0])
    except ValueError:
        return False
    if isinstance(ip, ipaddress.IPv6Address) and ip.ipv4_mapped is not None:
        ip = ip.ipv4_mapped
    return ip.is_global and not (ip.is_multicast or ip.is_reserved or ip.is_unspecified)
