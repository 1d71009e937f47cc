"""The quick match: people queue for a variant (or any) and are seated together, with
computers after a wait (``matching.py`` the rule, ``store.py`` the rows, ``service.py``)."""
