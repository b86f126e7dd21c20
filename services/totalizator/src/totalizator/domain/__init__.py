"""Pure domain rules of the totalizator service: no I/O, no framework imports."""
