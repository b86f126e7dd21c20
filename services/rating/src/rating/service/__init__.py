"""Use cases of the rating service: each runs in one transaction, state change and outbox events together."""
