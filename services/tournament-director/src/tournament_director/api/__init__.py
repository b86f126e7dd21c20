"""The director's REST API (docs/api/tournament-director.md): thin routers over the use cases."""
