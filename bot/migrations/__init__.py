"""Numbered SQL migrations, applied in order by :mod:`bot.store`."""
