"""Version 1 of the public API: `/api/v1/...`."""
