"""Discord adapters (cogs): thin layers between Discord and the table service."""

EXTENSIONS = [
    "cogs.domino",
    "cogs.records",
    "cogs.tournaments",
    "cogs.review",
    "cogs.daily",
    "cogs.queue",
    "cogs.records.achievements",
]
