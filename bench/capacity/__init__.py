"""The capacity harness behind `bench/bench_capacity.py`: the distributed platform (table-engine shards and
gateway instances behind one address), bots by the thousand in a few load-generator processes, the
measurements (latency, throughput, CPU and memory per process, database connections, queue depth) and, at the
end, every invariant of the end-to-end harness.

Importing the package puts that harness on the path as `harness` (`tests-e2e` is no package: its name has a
dash), before any module of the package imports it; spawned load-generator processes inherit the path
(multiprocessing's spawn passes `sys.path`)."""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
#: Git-ignored (`bench/results/`): the services' logs and the summary of each run.
ARTIFACTS = ROOT / "bench" / "results" / "capacity"

if str(ROOT / "tests-e2e") not in sys.path:
    sys.path.insert(0, str(ROOT / "tests-e2e"))
