"""``python -m tests.scale.main [args]``: exactly ``python -m bot [args]``, with discord.py's REST
base and gateway pointed at ``FAKE_DISCORD_URL`` (``http://host:port``) as the other process
tests do. Whatever the bot prints and its exit status are those of ``python -m bot``."""

from __future__ import annotations

import os
import runpy

from tests.scale.runner import patch_discord

if __name__ == "__main__":
    patch_discord(os.environ["FAKE_DISCORD_URL"])
    runpy.run_module("bot", run_name="__main__", alter_sys=True)
