"""Shared pytest configuration for the whole test suite."""

pytest_plugins = ["tests.fakediscord.fixtures", "tests.postgres"]
