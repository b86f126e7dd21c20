from platform_kit.migrations import run_env
from totalizator.adapters.orm import metadata

run_env(metadata)
