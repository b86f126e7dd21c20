"""Pure domain rules of the rating service: no I/O, no framework imports."""
