"""Use cases of the totalizator: each a transaction that changes state and writes its events to the outbox."""
