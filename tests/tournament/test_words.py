"""A tournament's words as Discord receives them, in each language: the podium says what its
rating figures are."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from bot.i18n import number
from tests.cogs.helpers import FakeClock, factory
from tests.fakediscord import FakeDiscord, running_bot
from tests.tournament.live import podium_lines
from tests.tournament.test_discord import play_out, public, step, tournament_cog

pytest_plugins = ["tests.fakediscord.plugin"]

#: Per locale: what a podium line says about the rating, and how it says it came from the
#: event's own tables.
PODIUM = {
    "en-US": (" · rating in Two-player games: ", " from this event)"),
    "es-ES": (" · puntuación en Juegos de dos: ", " en este torneo)"),
    "pt-BR": (" · pontuação em Jogos de dois: ", " neste torneio)"),
}


@pytest.mark.parametrize("locale", list(PODIUM))
async def test_the_podium_says_what_its_rating_figures_are(
    fake_discord: FakeDiscord, tmp_path: Path, locale: str
) -> None:
    """Not "rating 1000 → 1192": whose rating (the variant family's), and that the change is
    the event's own tables', numbers written as the language writes them."""
    fake = fake_discord
    fake.guild.locale = locale
    clock = FakeClock()
    host = fake.owner
    people = [fake.add_user(6000 + i, f"k{i}", f"Knock {i}") for i in range(2)]
    options = {"name": "Cup", "variant": "draw", "format": "single", "hands": 1,
               "system": "knockout"}
    async with running_bot(fake, factory(fake, tmp_path / "db.sqlite3", clock=clock)) as bot:
        made = await fake.slash(host, fake.channel_id, "domino tournament create", options)
        assert made.text(), made.text()
        for user in people:
            await fake.slash(user, fake.channel_id, "domino tournament register", {})
        await fake.slash(host, fake.channel_id, "domino tournament start", {})
        await step(bot, clock)
        await step(bot, clock)
        events = tournament_cog(bot).events
        event_id = (await events.find(fake.guild_id, fake.channel_id)).id
        await play_out(fake, bot, clock, event_id, 1)
        await step(bot, clock)
        state = await events.state(event_id)
        assert state.event.status == "finished" and state.event.locale == locale
        (podium,) = [
            m for m in public(fake) if m.embeds and "→" in m.embeds[0].get("description", "")
        ]
        lines = podium_lines(podium)
        changes = await events.rating_changes(state)
        rating, source = PODIUM[locale]
        for (place, entrant), line in zip(state.places(), lines, strict=True):
            before, after = (round(x) for x in changes[entrant])
            figures = (
                f"{rating}{number(locale, before)} → {number(locale, after)} "
                f"({number(locale, after - before, signed=True)}{source}"
            )
            assert line.startswith(f"{place}. ") and line.endswith(figures), (line, figures)
            assert not re.search(r"rating \d", line), line
