"""Adapters of the gateway service: database, bus and HTTP clients."""
