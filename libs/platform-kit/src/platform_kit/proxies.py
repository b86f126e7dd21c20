"""Which peers may tell a service who its client is (X-Forwarded-For / X-Forwarded-Proto).

uvicorn believes the headers only from these peers and, walking X-Forwarded-For from the right, takes the first
hop that is not one of them: the address the nearest untrusted party connected from, which a client cannot
forge. `*` would make uvicorn take the leftmost hop instead, which is whatever the client wrote: every per-address
limit could then be dodged by rotating the header, so it is refused; name the proxies (the ingress controller's
pod network, a load balancer's subnet).
"""

from __future__ import annotations

import ipaddress


def trusted_proxies(value: str) -> str:
    """`value` (comma-separated addresses and CIDR networks) normalised; ValueError for `*` or a non-address."""
    entries = [entry.strip() for entry in value.split(",") if entry.strip()]
    for entry in entries:
        if entry == "*":
            raise ValueError(
                "'*' would believe any client's own X-Forwarded-For: list the proxies' addresses or networks"
            )
        try:
            ipaddress.ip_network(entry, strict=False)
        except ValueError:
            raise ValueError(f"{entry!r} is neither an IP address nor a network") from None
    return ",".join(entries)
