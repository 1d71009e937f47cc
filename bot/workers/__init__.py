"""Work off the event loop: the process and thread pools (:mod:`bot.workers.pools`) and the
pictures drawn there (:mod:`bot.workers.pictures`)."""
