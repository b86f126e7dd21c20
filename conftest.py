pytest_plugins = ["platform_kit.testing"]
