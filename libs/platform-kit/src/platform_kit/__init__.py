"""What every service of the platform shares.

settings, database and migrations, the event bus with its transactional outbox and idempotent inbox,
JSON logging with correlation ids, Prometheus metrics, problem+json errors, and the event contracts.
"""
