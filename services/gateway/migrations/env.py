from gateway.adapters.orm import metadata
from platform_kit.migrations import run_env

run_env(metadata)
