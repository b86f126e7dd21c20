import sys
from pathlib import Path

# The tests' own helper modules (`runner_serving_support`) import by name, as in the services' test folders.
sys.path.insert(0, str(Path(__file__).parent))
