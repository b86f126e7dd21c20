from hypothesis import HealthCheck, settings

pytest_plugins = ["platform_kit.testing"]

# The suite must hold on a loaded machine (two cores shared with benchmarks and other runs): Hypothesis's timing
# checks — an example over 200 ms, input generation slower than about a second — measure the machine's load
# there, not the code. What the properties assert is unchanged.
settings.register_profile("loaded-machine", deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.load_profile("loaded-machine")
