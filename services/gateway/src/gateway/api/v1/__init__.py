"""Version 1 of the public API: `/api/v1/...`."""

API_V1 = "/api/v1"
"""Every v1 route's path begins so: each module's router declares it with the module's own part (`router.py`)."""
