"""The web companion (``python -m bot web``): read-only pages of the servers that turned them on.

- :mod:`bot.web.links`: the pages' addresses (the bot's messages link to them).
"""
