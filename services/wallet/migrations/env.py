from platform_kit.migrations import run_env
from wallet.adapters.orm import metadata

run_env(metadata)
