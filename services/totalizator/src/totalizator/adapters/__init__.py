"""Adapters of the totalizator service: database, bus and HTTP clients."""
