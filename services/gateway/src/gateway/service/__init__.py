"""Use cases of the gateway: each runs in one transaction (state change and outbox events together), plus the
in-memory parts of a gateway instance (rate limits, the WebSocket hub)."""
