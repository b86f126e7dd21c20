"""Pure domain rules of the tournament-director service: no I/O, no framework imports."""
