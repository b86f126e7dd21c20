"""The table-engine service tests share a harness (table_harness.py, beside this file)."""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
