"""A new correlation id is unique: in the process, and in a worker forked from it."""

from __future__ import annotations

import os
import re

from platform_kit import correlation


def test_new_ids_are_32_hex_digits_and_never_repeat() -> None:
    ids = [correlation.new_id() for _ in range(10_000)]
    assert all(re.fullmatch(r"[0-9a-f]{32}", new) for new in ids)
    assert len(set(ids)) == len(ids)


def test_a_forked_worker_draws_other_ids_than_its_parent() -> None:
    readable, writable = os.pipe()
    child = os.fork()
    if child == 0:  # the worker: its next id, to the parent
        os.write(writable, correlation.new_id().encode())
        os._exit(0)
    os.waitpid(child, 0)
    assert os.read(readable, 64).decode() != correlation.new_id()
