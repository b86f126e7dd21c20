from platform_kit.migrations import run_env
from rating.adapters.orm import metadata

run_env(metadata)
