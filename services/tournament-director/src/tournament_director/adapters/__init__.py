"""Adapters of the tournament-director service: database, bus and HTTP clients."""
