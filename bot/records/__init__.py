"""Records, ratings and leaderboards of finished matches.

- :mod:`bot.records.record`: the record of one match (pure data) and the families and buckets.
- :mod:`bot.records.rating`: openskill ratings and the rating people see.
- :mod:`bot.records.store`: the records' SQL, as a repository on ``store.db`` or ``tx.db``.
- :mod:`bot.records.service`: :class:`~bot.records.service.Records`, which records finished
  matches and answers leaderboard, stats, history and privacy queries.
"""
