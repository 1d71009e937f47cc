"""The privacy screen: where a person appears on leaderboards."""

from __future__ import annotations

import discord

from bot.i18n import tr
from bot.records.record import GLOBAL
from cogs.records.buttons import PrivacyButton, RecordsButton


def privacy_embed(locale: str | None, hidden: set[int], guild_id: int | None) -> discord.Embed:
    """What ``/domino privacy`` shows: where the person appears on leaderboards."""
    yes, no = tr(locale, "shown"), tr(locale, "hidden")
    lines = [
        tr(
            locale,
            "Global leaderboards: **{state}**",
            state=no if GLOBAL in hidden else yes,
        )
    ]
    if guild_id is not None:
        lines.append(
            tr(
                locale,
                "This server's leaderboards: **{state}**",
                state=no if guild_id in hidden else yes,
            )
        )
    lines.append(
        tr(
            locale,
            "Each choice is separate: leaving the global leaderboards keeps you on this "
            "server's unless you leave them too. Your matches are still recorded.",
        )
    )
    return discord.Embed(
        title=tr(locale, "Your place on the leaderboards"), description="\n".join(lines)
    )


def privacy_buttons(
    locale: str | None, user_id: int, hidden: set[int], guild_id: int | None
) -> list[RecordsButton]:
    """One toggle per scope."""
    out = [
        PrivacyButton(
            user_id,
            GLOBAL,
            GLOBAL not in hidden,
            label=tr(locale, "Show me on the global leaderboards")
            if GLOBAL in hidden
            else tr(locale, "Leave the global leaderboards"),
        )
    ]
    if guild_id is not None:
        out.append(
            PrivacyButton(
                user_id,
                guild_id,
                guild_id not in hidden,
                label=tr(locale, "Show me on this server's leaderboards")
                if guild_id in hidden
                else tr(locale, "Leave this server's leaderboards"),
            )
        )
    return out
