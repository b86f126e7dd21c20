from platform_kit.migrations import run_env
from tournament_director.adapters.orm import metadata

run_env(metadata)
