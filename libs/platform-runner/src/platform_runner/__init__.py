"""Starts the platform: standalone (six services, one process, in-memory bus, SQLite) or one service alone."""
