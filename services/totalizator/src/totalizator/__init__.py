"""The totalizator service."""
