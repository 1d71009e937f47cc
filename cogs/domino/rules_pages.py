"""``/domino rules``, one section at a time: a private answer whose menu turns to another
section (in short, the variant's rules, the rules every variant shares; the list of variants).

The menu's id carries who asked and what about (``domino:rules:<user>:<topic>``): nothing is
kept in memory, so it keeps working across restarts, and only the asker turns its pages.
"""

from __future__ import annotations

import re
from typing import Any

import discord

from bot.i18n import N_, tr
from cogs.colours import BLUE
from cogs.domino import texts
from cogs.markup import slash_command
from cogs.rules_text import common_rules, daily_rules, tournament_rules, variant_rules

Interaction = discord.Interaction[Any]

#: The topic of the overview (``/domino rules`` without a variant).
OVERVIEW = "all"
#: Each topic's sections, in order, with the menu's words.
SECTIONS: dict[str, tuple[tuple[str, str], ...]] = {
    "variant": (
        ("short", N_("In short: five lines")),
        ("full", N_("All the rules of this variant")),
        ("common", N_("Rules every variant shares")),
    ),
    OVERVIEW: (
        ("variants", N_("The variants")),
        ("common", N_("Rules every variant shares")),
    ),
}


def sections(topic: str) -> tuple[tuple[str, str], ...]:
    """The sections of ``topic`` (a variant, :data:`OVERVIEW`, ``tournament`` or ``daily``);
    a topic of one section has none to choose from."""
    if topic in texts.VARIANTS:
        return SECTIONS["variant"]
    return SECTIONS.get(topic, ())


def page(locale: str | None, topic: str, section: str | None = None) -> discord.Embed:
    """One section of the rules of ``topic`` (its first when ``section`` is None)."""
    known = [key for key, _ in sections(topic)]
    if section not in known:
        section = known[0] if known else None
    if topic == "tournament":
        return discord.Embed(description=tournament_rules(locale), colour=BLUE)
    if topic == "daily":
        return discord.Embed(description=daily_rules(locale), colour=BLUE)
    if section == "common":
        return discord.Embed(description=common_rules(locale), colour=BLUE)
    if topic == OVERVIEW:
        embed = discord.Embed(title=tr(locale, "Dominoes variants"), colour=BLUE)
        for key, (name, summary) in texts.VARIANTS.items():
            embed.add_field(
                name=f"{tr(locale, name)} (`{key}`)", value=tr(locale, summary), inline=False
            )
        embed.set_footer(text=tr(
            locale, "{command} with a variant shows its full rules.",
            command=slash_command(locale, "domino rules", clickable=False),
        ))
        return embed
    title = texts.variant_name(locale, topic)
    if section == "full":
        return discord.Embed(title=title, description=variant_rules(locale, topic), colour=BLUE)
    # Five lines first: what a newcomer needs at the table.
    summary = texts.rules_summary(locale, topic)
    return discord.Embed(
        title=title,
        description="\n".join(f"{i}. {line}" for i, line in enumerate(summary, start=1)),
        colour=BLUE,
    )


def answer(
    locale: str | None, user_id: int, topic: str, section: str | None = None
) -> tuple[discord.Embed, discord.ui.View | None]:
    """The embed of one section and the menu of the others (None: a topic of one section)."""
    embed = page(locale, topic, section)
    choices = sections(topic)
    if not choices:
        return embed, None
    shown = section if section in {key for key, _ in choices} else choices[0][0]
    view = discord.ui.View(timeout=None)
    view.add_item(RulesSelect(user_id, topic, locale, shown))
    return embed, view


class RulesSelect(
    discord.ui.DynamicItem[discord.ui.Select[Any]],
    template=r"domino:rules:(?P<user>[0-9]{1,20}):(?P<topic>[a-z0-9-]{1,20})",
):
    """The menu of a rules answer: the section to show instead (the asker only)."""

    def __init__(
        self, user_id: int, topic: str, locale: str | None = None, shown: str | None = None
    ) -> None:
        options = [
            discord.SelectOption(label=tr(locale, words)[:100], value=key, default=key == shown)
            for key, words in sections(topic)
        ] or [discord.SelectOption(label="-", value="-")]
        select: discord.ui.Select[Any] = discord.ui.Select(
            custom_id=f"domino:rules:{user_id}:{topic}",
            placeholder=tr(locale, "Another section of the rules"),
            options=options,
        )
        super().__init__(select)
        self.user_id = user_id
        self.topic = topic

    @classmethod
    async def from_custom_id(
        cls, interaction: Interaction, item: discord.ui.Item[Any], match: re.Match[str]
    ) -> RulesSelect:
        return cls(int(match["user"]), match["topic"])

    async def callback(self, interaction: Interaction) -> None:
        locale = interaction.locale.value
        values = (interaction.data or {}).get("values") or [""]
        wanted = str(values[0])
        if interaction.user.id != self.user_id:
            await interaction.response.send_message(
                tr(locale, "These rules were asked for by someone else: ask for your own with "
                           "{command}.", command=slash_command(locale, "domino rules")),
                ephemeral=True,
            )
            return
        if not sections(self.topic) or wanted not in {k for k, _ in sections(self.topic)}:
            await interaction.response.send_message(
                tr(locale, "This button is not valid any more."), ephemeral=True
            )
            return
        embed, view = answer(locale, self.user_id, self.topic, wanted)
        await interaction.response.edit_message(embed=embed, view=view)
