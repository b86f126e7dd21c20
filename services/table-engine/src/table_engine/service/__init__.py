"""Use cases around the pure engine: the shard host, the table state machine, queries for the API."""
