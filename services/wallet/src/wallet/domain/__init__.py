"""The wallet's pure rules: currencies, accounts, operations and their legs, holds, idempotency, reconciliation."""
