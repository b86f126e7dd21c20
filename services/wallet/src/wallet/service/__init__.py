"""Use cases: each runs in one transaction that changes the ledger and writes its events to the outbox."""
