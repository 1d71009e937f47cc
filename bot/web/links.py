"""Addresses of the web companion's pages, for the bot's messages and the pages themselves."""

from __future__ import annotations

from urllib.parse import urlencode

from bot.store import Store
from bot.store.table_extras import GuildSettingsRepo

__all__ = [
    "badge_path",
    "live_path",
    "match_path",
    "page_url",
    "player_path",
    "server_path",
    "tournament_path",
    "url",
]


def server_path(guild_id: int, **query: str) -> str:
    """A server's page: its leaderboards (``board``, ``by``) and recent matches."""
    return f"/s/{guild_id}" + (f"?{urlencode(query)}" if query else "")


def player_path(guild_id: int, player_id: int) -> str:
    """A player's page, as seen from one server's pages."""
    return f"/s/{guild_id}/p/{player_id}"


def badge_path(code: str) -> str:
    """An achievement's badge (a picture)."""
    return f"/badges/{code}.png"


def tournament_path(guild_id: int, event_id: int) -> str:
    """A tournament's standings and pairings."""
    return f"/s/{guild_id}/t/{event_id}"


def match_path(table_id: int, *, hand: int | None = None, move: int | None = None) -> str:
    """A finished match's page; with ``hand`` and ``move``, a position of its replay."""
    query = {k: v for k, v in (("hand", hand), ("move", move)) if v is not None}
    return f"/m/{table_id}" + (f"?{urlencode(query)}" if query else "")


def live_path(table_id: int) -> str:
    """A running table's live page (followed move by move)."""
    return f"/live/{table_id}"


def url(base_url: str, path: str) -> str | None:
    """The absolute address of ``path`` on the pages at ``base_url`` (None: no pages)."""
    return f"{base_url.rstrip('/')}{path}" if base_url else None


async def page_url(store: Store, base_url: str, guild_id: int | None, path: str) -> str | None:
    """The address of ``path`` when the bot knows where its pages are and the server has them
    on (one indexed read); else None."""
    if not base_url or guild_id is None:
        return None
    settings = await GuildSettingsRepo(store.db).get(guild_id)
    return url(base_url, path) if settings.web else None
