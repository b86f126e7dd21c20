"""Adapters of the wallet service: database, bus and HTTP clients."""
