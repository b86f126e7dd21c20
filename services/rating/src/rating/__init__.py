"""The rating service."""
