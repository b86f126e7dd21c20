"""Adapters of the rating service: database, bus and HTTP clients."""
