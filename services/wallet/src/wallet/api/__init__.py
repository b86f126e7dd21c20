"""The wallet's REST API under /internal/v1: internal routes for the platform's services, partner routes for
concessionaires (through the gateway)."""
