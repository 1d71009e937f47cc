"""The forget-me screen: what is deleted, and the confirmation."""

from __future__ import annotations

import discord

from bot.i18n import N_, tr, trn
from cogs.colours import BLUE
from cogs.records.buttons import ForgetButton, RecordsButton

FORGET_TEXT = N_(
    "This deletes your name, your figures, your ratings and your leaderboard choices, on every "
    "server. The matches you played stay in the other players' histories, played by "
    '"a former player", so that their ratings do not change. This cannot be undone.'
)


def forget_embed(locale: str | None, lobbies: int, running: int) -> discord.Embed:
    """What ``/domino forget-me`` asks before it forgets someone."""
    lines = [tr(locale, FORGET_TEXT)]
    if lobbies:
        lines.append(tr(locale, "Your open tables are left, or cancelled if you host them."))
    if running:
        lines.append(
            "**"
            + trn(
                locale,
                "You are playing in a running match: forgetting you resigns it.",
                "You are playing in {count} running matches: forgetting you resigns them.",
                running,
            )
            + "**"
        )
    return discord.Embed(
        title=tr(locale, "Forget me?"), description="\n\n".join(lines), colour=BLUE
    )


def forget_buttons(locale: str | None, user_id: int, running: int) -> list[RecordsButton]:
    """Forget me (which says how many running matches it resigns) and Cancel."""
    return [
        ForgetButton(
            user_id,
            "yes",
            running,
            label=tr(locale, "Resign and forget me") if running else tr(locale, "Forget me"),
            style=discord.ButtonStyle.danger,
        ),
        ForgetButton(user_id, "no", 0, label=tr(locale, "Cancel")),
    ]
