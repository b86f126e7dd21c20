"""Bot players that use only the public API (REST with httpx, streams with websockets): for demos, for filling
a sit'n'go so a newcomer can play at once, and for tests and load.

    uv run python -m gateway.bots --base-url http://127.0.0.1:8000 --players 5 --tournament auto
"""
