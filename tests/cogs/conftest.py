"""Fixtures for the cog tests: a fake Discord and a factory of real bots against it."""

from tests.fakediscord.plugin import fake_discord

__all__ = ["fake_discord"]
