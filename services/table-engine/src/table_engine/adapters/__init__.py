"""Adapters of the table-engine service: database, bus and HTTP clients."""
