"""A served process collects garbage in fewer, larger rounds (issue 14: a gateway with thousands of sockets spent
a fifth of its busy time in CPython's collector at its default thresholds)."""

from __future__ import annotations

import gc
from collections.abc import Iterator

import pytest
from platform_runner.serving import GC_THRESHOLDS, run


@pytest.fixture
def restored_collector() -> Iterator[None]:
    thresholds = gc.get_threshold()
    yield
    gc.set_threshold(*thresholds)
    gc.unfreeze()


@pytest.mark.usefixtures("restored_collector")
def test_run_raises_the_collectors_thresholds_and_freezes_what_is_loaded() -> None:
    seen: list[tuple[tuple[int, ...], int]] = []

    async def main() -> None:
        seen.append((gc.get_threshold(), gc.get_freeze_count()))

    run(main())

    [(thresholds, frozen)] = seen
    assert thresholds == GC_THRESHOLDS != (700, 10, 10)
    assert frozen > 0
