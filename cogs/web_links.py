"""Links from the bot's messages to the web companion's pages (where a server has them on)."""

from __future__ import annotations

from typing import Any

import discord

from bot.i18n import tr
from bot.store import Store
from bot.web.links import live_path, page_url

__all__ = ["watch_button", "web_button", "web_url"]


async def web_url(client: Any, store: Store, guild_id: int | None, path: str) -> str | None:
    """The page's address, if the bot knows where its pages are and the server has them on."""
    base = getattr(getattr(client, "settings", None), "web_base_url", "") or ""
    return await page_url(store, base, guild_id, path)


def web_button(locale: str | None, url: str) -> discord.ui.Button[Any]:
    """A link button to a page."""
    return discord.ui.Button(
        style=discord.ButtonStyle.link, label=tr(locale, "On the web"), url=url
    )


async def watch_button(
    client: Any, store: Store, locale: str | None, guild_id: int | None, table_id: int
) -> discord.ui.Button[Any] | None:
    """"Watch live": a link to a running table's live page, where the server has pages on
    (None elsewhere; the page itself is a 404 unless the table is in a public place)."""
    url = await web_url(client, store, guild_id, live_path(table_id))
    if url is None:
        return None
    return discord.ui.Button(
        style=discord.ButtonStyle.link, label=tr(locale, "Watch live"), url=url
    )
