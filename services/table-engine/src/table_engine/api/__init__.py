"""The table engine's read-only REST API: public table state and hand histories."""
