"""Pure domain rules of the wallet service: no I/O, no framework imports."""
