"""Use cases of the tournament-director service: each one transaction (state change and outbox together), with
wallet calls recorded as money steps before they are made (`money`)."""
