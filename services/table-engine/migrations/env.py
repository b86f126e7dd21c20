from platform_kit.migrations import run_env
from table_engine.adapters.orm import metadata

run_env(metadata)
