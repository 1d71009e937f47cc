"""Commands beside the bot: ``python -m bot demo`` (:mod:`bot.tools.demo`) and ``python -m bot
copy-db`` (:mod:`bot.tools.copydb`)."""
