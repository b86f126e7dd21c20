"""Business rules that more than one service enforces, each owned here once so that the services cannot drift.

Pure functions on plain values (integer cents, no I/O); each names the spec rule it implements. A service wraps
the answer in its own vocabulary (an `Issue`, a refusal), never re-derives it.
"""
