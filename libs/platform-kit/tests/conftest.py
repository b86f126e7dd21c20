import sys
from pathlib import Path

# The bus tests share a tiny fixture service module (also run as a script by the SIGKILL test).
sys.path.insert(0, str(Path(__file__).parent))
