import sys
from pathlib import Path

# The wallet's tests share a small HTTP client (wallet_test_client.py), also used by the SIGKILL test.
sys.path.insert(0, str(Path(__file__).parent))
