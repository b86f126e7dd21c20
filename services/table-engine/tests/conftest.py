"""Shared helpers for the table-engine tests live in ``table_engine_scenarios`` (beside this file)."""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
