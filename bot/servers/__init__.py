"""A server's own settings: its tables' defaults, its limits, its roles
(:mod:`bot.servers.settings`)."""
