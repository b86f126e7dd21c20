"""Pure domain rules of the table-engine service: no I/O, no framework imports."""
