"""``/domino review`` and the answers to the Review button."""

from __future__ import annotations

import contextlib
import io
from collections.abc import AsyncIterator
from typing import Any

import discord
from discord import app_commands
from discord.app_commands import locale_str
from discord.ext import commands

from bot.i18n import picture_options, tr, trn
from bot.review import Reviews
from bot.review.exercise import Exercise, Exercises, Verdict, flagged
from bot.store.table_extras import FinishedRepo
from bot.workers import pictures
from cogs.colours import BLUE
from cogs.domino.buttons import REVIEW_COG, BadButton
from cogs.domino.game_message import card
from cogs.domino.replay import match_title, replay_names
from cogs.markup import slash_command
from cogs.names import escape_name
from cogs.review import exercise as ex
from cogs.review.words import decision_text, picture_alt, summary_lines
from render.review import render_position

Interaction = discord.Interaction[Any]
GROUP_NAME = "domino"
DOMINO_COG = "Domino"


@app_commands.command(
    name="review",
    description=locale_str("The expert goes over your moves in a finished match of yours"),
)
@app_commands.describe(
    table=locale_str("The table number of your finished match"),
    hand=locale_str("Only this hand (left out: the whole match)"),
)
async def review_command(
    interaction: Interaction,
    table: app_commands.Range[int, 1, 2**53],
    hand: app_commands.Range[int, 1, 999] | None = None,
) -> None:
    cog: ReviewCog | None = interaction.client.get_cog(REVIEW_COG)  # type: ignore[attr-defined]
    if cog is None:  # unloaded while the command was on its way
        return
    async with cog.guard(interaction, "/domino review", table):
        await interaction.response.defer(ephemeral=True, thinking=True)
        await cog.answer(interaction, table, hand)


class ReviewCog(commands.Cog, name=REVIEW_COG):
    """``/domino review`` and the answers to the Review button."""

    def __init__(self, bot: commands.Bot, reviews: Reviews) -> None:
        self.bot = bot
        self.reviews = reviews
        self.exercises = Exercises(reviews)
        self._group: app_commands.Group | None = None

    async def cog_load(self) -> None:
        found = self.bot.tree.get_command(GROUP_NAME)
        if not isinstance(found, app_commands.Group):
            raise RuntimeError("the review cog needs the dominoes cog's /domino group")
        self._group = found
        found.add_command(review_command, override=True)
        self.bot.add_dynamic_items(*ex.ALL)

    async def cog_unload(self) -> None:
        self.bot.remove_dynamic_items(*ex.ALL)
        if self._group is not None:
            self._group.remove_command(review_command.name)

    @contextlib.asynccontextmanager
    async def guard(
        self, interaction: Interaction, what: str, table_id: int | None
    ) -> AsyncIterator[None]:
        """The dominoes cog's error guard (errors become short ephemeral answers)."""
        host = self.bot.get_cog(DOMINO_COG)
        if host is None:
            raise RuntimeError("the review cog needs the dominoes cog")
        async with host.guard(interaction, what, table_id):  # type: ignore[attr-defined]
            yield

    async def reply(self, interaction: Interaction, text: str) -> None:
        """An ephemeral answer (the dominoes cog's)."""
        host = self.bot.get_cog(DOMINO_COG)
        if host is not None:
            await host.reply(interaction, text)  # type: ignore[attr-defined]

    async def _names(self, interaction: Interaction, table_id: int
                     ) -> tuple[Any, list[str]]:
        """The asker's finished match at ``table_id`` (None if hidden) and its seats' names."""
        found = await FinishedRepo(self.reviews.store.db).visible(
            interaction.user.id, None, table_id=table_id, limit=1, veil=None
        )
        if not found:
            return None, []
        return found[0], replay_names(
            interaction.locale.value, found[0], interaction.user, interaction.guild_id
        )

    async def answer(self, interaction: Interaction, table_id: int, hand: int | None) -> None:
        """Send the asker's review of ``table_id`` (``hand``: of that hand only) privately;
        the interaction is deferred already (ephemeral)."""
        locale = interaction.locale.value
        review = await self.reviews.review(table_id, interaction.user.id, hand)
        found, names = await self._names(interaction, table_id)
        shown = review.costliest(hand)
        moments = await self.reviews.moments(review, shown)
        title = match_title(locale, found, [escape_name(n) for n in names]) if found else ""
        if hand is not None:
            title = tr(locale, "{match} · hand {hand}", match=title, hand=hand)
        lines = [
            "**" + tr(locale, "Review: {title}", title=title) + "**",
            *summary_lines(locale, review, hand),
            "-# " + tr(
                locale,
                "The expert judged each of your moves from what you could see then: your "
                "tiles, the table, the passes and draws. Costs are its estimates in points.",
            ),
        ]
        if review.left:
            lines.append("-# " + trn(
                locale,
                "A long match: one of your decisions is not judged yet (the expert judges at "
                "most {cap} a request): ask again to judge it.",
                "A long match: {count} of your decisions are not judged yet (the expert judges "
                "at most {cap} a request): ask again to judge them.",
                review.left,
                cap=self.reviews.per_request,
            ))
        items: list[discord.ui.Item[Any]] = [discord.ui.TextDisplay("\n".join(lines))]
        files: list[discord.File] = []
        if not shown:
            items.append(discord.ui.TextDisplay(tr(
                locale, "No costly move: the expert would have played about as well."
            )))
        options = picture_options(locale)
        for rank, (judged, (public, mine)) in enumerate(zip(shown, moments, strict=True), 1):
            items.append(discord.ui.TextDisplay(decision_text(locale, rank, judged, mine)))
            png = await pictures.offload(render_position, public, mine, names, **options)
            name = f"review-{rank}.png"
            alt = picture_alt(locale, judged, mine)
            files.append(discord.File(io.BytesIO(png), filename=name, description=alt))
            items.append(discord.ui.MediaGallery(
                discord.MediaGalleryItem(f"attachment://{name}", description=alt)
            ))
        to_find = flagged(review.of_hand(hand))
        if to_find:
            items.append(discord.ui.TextDisplay("-# " + tr(
                locale,
                "Find a better move: try each costly decision yourself before the expert "
                "answers.",
            )))
            items.append(discord.ui.ActionRow(ex.OpenButton(
                table_id, interaction.user.id, to_find[0].seq,
                label=tr(locale, "Find a better move"), style=discord.ButtonStyle.primary,
            )))
        await interaction.followup.send(
            view=card(BLUE, *items), files=files, ephemeral=True,
            allowed_mentions=discord.AllowedMentions.none(),
        )

    async def exercise_click(self, interaction: Interaction, button: ex.ExerciseButton) -> None:
        """An exercise's button clicked (the interaction is deferred already)."""
        locale = interaction.locale.value
        user = interaction.user.id
        if isinstance(button, ex.DoneButton):
            await self.exercises.first(button.table_id, button.owner, user)  # the checks
            await interaction.edit_original_response(
                view=card(BLUE, discord.ui.TextDisplay(tr(
                    locale,
                    "Done. Your review of table {table_id} stays there: ask {command} "
                    "again to go over it.",
                    table_id=button.table_id,
                    command=slash_command(locale, "domino review"),
                ))),
                attachments=[],
            )
            return
        found: Verdict | None = None
        if isinstance(button, ex.TryButton):
            try:
                move = button.action()
            except ValueError as exc:
                raise BadButton(str(exc)) from exc
            exercise, found = await self.exercises.attempt(
                button.table_id, button.owner, user, button.seq, move
            )
        else:
            exercise = await self.exercises.exercise(
                button.table_id, button.owner, user, button.seq
            )
        answered = isinstance(button, ex.TryButton | ex.ShowButton)
        layout, file = await self._exercise_message(interaction, exercise, found, answered)
        if button.new_message:
            await interaction.followup.send(
                view=layout, file=file, ephemeral=True,
                allowed_mentions=discord.AllowedMentions.none(),
            )
        else:
            await interaction.edit_original_response(
                view=layout, attachments=[file], allowed_mentions=discord.AllowedMentions.none()
            )

    async def _exercise_message(
        self, interaction: Interaction, exercise: Exercise, found: Verdict | None,
        answered: bool,
    ) -> tuple[discord.ui.LayoutView, discord.File]:
        """The exercise's message: its words, the picture, the buttons."""
        locale = interaction.locale.value
        _, names = await self._names(interaction, exercise.table_id)
        lines = (ex.answer(locale, exercise, found) if answered
                 else ex.question(locale, exercise))
        png = await pictures.offload(render_position, exercise.public, exercise.mine, names,
                                     **picture_options(locale))
        name = f"exercise-{exercise.judged.seq + 1}.png"
        alt = picture_alt(locale, exercise.judged, exercise.mine)
        items: list[discord.ui.Item[Any]] = [
            discord.ui.TextDisplay("\n".join(lines)),
            discord.ui.MediaGallery(
                discord.MediaGalleryItem(f"attachment://{name}", description=alt)
            ),
        ]
        if not answered:
            items.extend(ex.rows(ex.move_buttons(locale, exercise)))
        items.extend(ex.rows(ex.steps(locale, exercise, answered=answered)))
        file = discord.File(io.BytesIO(png), filename=name, description=alt)
        return card(BLUE, *items), file
