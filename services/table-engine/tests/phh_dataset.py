"""Real hand histories from the public PHH dataset, which are never committed (data fetched from public
repositories stays out of the repo): where they are, which ones the tests use, and what happens when they are
absent.

``PHH_DATASET_DIR`` names either a checkout of the public dataset (files at their published paths, e.g.
``data/pluribus/102/0.phh``) or a folder holding just these files, flat (e.g. ``pluribus/102-0.phh``); see the
docstring of ``test_phh.py``. Unset, the archive the workplace keeps beside the project,
``../shared/data/phh-dataset.tgz``, is extracted to a temporary folder once per test process. With neither, the
tests are skipped on a developer's machine and FAIL under ``CI=true``: CI always replays the real hands.
"""

from __future__ import annotations

import atexit
import functools
import os
import shutil
import tarfile
import tempfile
from collections.abc import Callable
from pathlib import Path

import pytest

ENVIRONMENT_VARIABLE = "PHH_DATASET_DIR"
RUN_COMMAND = (
    f"{ENVIRONMENT_VARIABLE}=/path/to/phh-dataset "
    "uv run pytest services/table-engine/tests/test_phh.py -q -p no:cacheprovider"
)

# Every no-limit and fixed-limit hold'em hand of the 2023 WSOP Event #43 final table (the others are other games).
WSOP_HANDS = (1, 2, 3, 4, 34, 35, 36, 37, 38, 39, 40, 62, 63, 64, 65, 66, 67, 68)
# 50 of the 10,000 Pluribus hands, named <folder>-<hand> after their published path pluribus/<folder>/<hand>.phh.
PLURIBUS_HANDS = (
    *("102-0", "106-70", "108-155", "109-235", "111b-150", "112-45", "112-9", "115-7", "116-2", "117-12"),
    *("117-13", "117-28", "32-23", "40b-189", "40b-218", "41b-187", "41b-204", "42-5", "42b-217", "43-19"),
    *("44b-159", "53b-183", "60-88", "64-88", "65-93", "70-82", "71-66", "71-8", "72-17", "72-67"),
    *("75b-76", "75b-78", "76b-137", "77-15", "83-27", "84-98", "85-67", "88-128", "89-13", "91-31"),
    *("91-43", "91-53", "94-11", "95-31", "95b-136", "95b-41", "95b-54", "96b-142", "97b-128", "99-133"),
)
# Split pots of an odd number of chips: the Pluribus logs give each winner half a chip; chips are whole here.
HALF_CHIP_HANDS = ("102-0", "32-23", "41b-204", "60-88", "75b-76", "88-128", "91-43", "91-53")


SHARED_ARCHIVE = Path(__file__).resolve().parents[3].parent / "shared" / "data" / "phh-dataset.tgz"


def _locate() -> tuple[Path | None, str]:
    value = os.environ.get(ENVIRONMENT_VARIABLE)
    if value:
        if not Path(value).is_dir():
            return None, f"{ENVIRONMENT_VARIABLE}={value} is not a directory"
        return Path(value), ""
    if SHARED_ARCHIVE.is_file():
        return _extracted(SHARED_ARCHIVE), ""
    return None, f"{ENVIRONMENT_VARIABLE} is not set and {SHARED_ARCHIVE} does not exist"


def _extracted(archive: Path) -> Path:
    folder = Path(tempfile.mkdtemp(prefix="phh-dataset-"))
    atexit.register(shutil.rmtree, folder, ignore_errors=True)
    with tarfile.open(archive) as tar:
        tar.extractall(folder, filter="data")
    return folder


DATASET, _MISSING = _locate()
_REASON = (
    f"REAL PHH HANDS NOT REPLAYED: {_MISSING}. They are not in the repo; get the public PHH dataset "
    f"(see test_phh.py's docstring) and run: {RUN_COMMAND}"
)
_IN_CI = os.environ.get("CI", "").lower() in ("1", "true", "yes")


def needs_dataset(test: Callable[..., None]) -> Callable[..., None]:
    """Mark a test that reads real hands: skipped without them, except under CI, where it fails instead."""
    if DATASET is not None:
        return test
    if not _IN_CI:
        return pytest.mark.skip(reason=_REASON)(test)

    @functools.wraps(test)
    def fails(*args: object, **kwargs: object) -> None:
        pytest.fail(_REASON)

    return fails


def dataset_file(flat: str, published: str) -> Path:
    """The file named ``flat`` in a flat folder, or ``published`` in a checkout (with or without its data/)."""
    assert DATASET is not None, "use only in tests marked needs_dataset"
    for candidate in (DATASET / flat, DATASET / "data" / published, DATASET / published):
        if candidate.is_file():
            return candidate
    pytest.fail(f"{ENVIRONMENT_VARIABLE}={DATASET} has neither {flat} nor data/{published}")


def wsop_file(hand: int) -> Path:
    return dataset_file(f"wsop-2023-43-5/{hand}.phh", f"wsop/2023/43/5/{hand}.phh")


def pluribus_file(name: str) -> Path:
    folder, hand = name.split("-")
    return dataset_file(f"pluribus/{name}.phh", f"pluribus/{folder}/{hand}.phh")


def dwan_ivey_file() -> Path:
    return dataset_file("dwan-ivey-2009.phh", "dwan-ivey-2009.phh")


def missing_fold_text() -> str:
    """A real hand whose actions skip a player: WSOP 2023 Event #43 hand 1 without p5's pre-flop fold (the
    published WSOP 2019 hand 00-01-07 has this defect, but the dataset's archive does not hold it)."""
    text = wsop_file(1).read_text(encoding="utf-8")
    assert "'p5 f', " in text
    return text.replace("'p5 f', ", "", 1)
