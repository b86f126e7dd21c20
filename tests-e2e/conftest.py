"""The e2e harness is imported as `harness` (tests-e2e is not a package: its name has a dash)."""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
