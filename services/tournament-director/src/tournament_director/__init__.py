"""The tournament-director service."""
