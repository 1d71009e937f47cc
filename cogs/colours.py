"""The colours of the bot's embeds (one palette for every cog)."""

from __future__ import annotations

import discord

GREEN = discord.Colour.from_rgb(46, 125, 50)  # a match on, a lobby started
BLUE = discord.Colour.from_rgb(21, 101, 192)  # information: lobbies, rules, settings, results
GREY = discord.Colour.from_rgb(96, 125, 139)  # closed or cancelled
GOLD = discord.Colour.from_rgb(249, 168, 37)  # a match's end
