"""Pure domain rules of the gateway service: no I/O, no framework imports."""
