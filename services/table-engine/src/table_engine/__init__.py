"""The table-engine service."""
