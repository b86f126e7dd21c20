"""The director's service tests share a harness (director_harness.py, beside this file): the real wallet, rating and
table-engine apps in process, on one in-memory bus, with bots playing through `table.act` commands."""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
