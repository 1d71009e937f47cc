"""Forget-me: a person forgotten by every capability at once, and his part in open tables
ended (:mod:`bot.privacy.forget`). It sits above the capabilities; each keeps its own ``forget``
(its rows), and this package calls them all."""
