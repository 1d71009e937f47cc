"""Discord adapters (cogs): thin layers between Discord and the table service."""

EXTENSIONS = [
    "cogs.domino",
    "cogs.records",
    "cogs.tournament",
    "cogs.review",
    "cogs.daily",
    "cogs.achievements",
]
