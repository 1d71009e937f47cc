"""The daily deal: the same deal for everyone each UTC day, played against expert computers
(:mod:`bot.daily.service`; its rows in :mod:`bot.daily.store`)."""
