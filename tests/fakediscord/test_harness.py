"""Tests of the fake Discord itself, driving a tiny throwaway discord.py bot."""

from __future__ import annotations

import asyncio
import io
import re
import struct
import zlib

import aiohttp
import discord
import pytest
from discord import app_commands
from discord.ext import commands

from tests.fakediscord import FakeDiscord, InteractionTimeout, running_bot


def tiny_png() -> bytes:
    """A valid 2x1 PNG, a few dozen bytes."""

    def chunk(kind: bytes, data: bytes) -> bytes:
        body = kind + data
        return struct.pack(">I", len(data)) + body + struct.pack(">I", zlib.crc32(body))

    header = struct.pack(">IIBBBBB", 2, 1, 8, 2, 0, 0, 0)
    pixels = zlib.compress(b"\x00" + b"\xff\x00\x00" + b"\x00\x00\xff")
    return (
        b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", pixels) + chunk(b"IEND", b"")
    )


PNG = tiny_png()


class PingButton(
    discord.ui.DynamicItem[discord.ui.Button[discord.ui.View]], template=r"ping:(?P<n>\d+)"
):
    def __init__(self, n: int) -> None:
        super().__init__(
            discord.ui.Button(
                label=f"Ping {n}", style=discord.ButtonStyle.primary, custom_id=f"ping:{n}"
            )
        )
        self.n = n

    @classmethod
    async def from_custom_id(
        cls,
        interaction: discord.Interaction[discord.Client],
        item: discord.ui.Item[discord.ui.View],
        match: re.Match[str],
    ) -> PingButton:
        return cls(int(match["n"]))

    async def callback(self, interaction: discord.Interaction[discord.Client]) -> None:
        view = discord.ui.View(timeout=None)
        view.add_item(PingButton(self.n + 1))
        await interaction.response.edit_message(content=f"pong {self.n}", view=view)
        await interaction.followup.send(
            f"secret {self.n}",
            ephemeral=True,
            file=discord.File(io.BytesIO(PNG), filename="pong.png"),
        )


class PeekButton(discord.ui.DynamicItem[discord.ui.Button[discord.ui.View]], template=r"peek"):
    """Answered as an update of its (public) message; the secret goes as an ephemeral followup,
    then edited by its id with the same token (as the dominoes' My tiles does)."""

    clicks: list[tuple[discord.Interaction[discord.Client], int]] = []

    def __init__(self) -> None:
        super().__init__(discord.ui.Button(label="Peek", custom_id="peek"))

    @classmethod
    async def from_custom_id(
        cls,
        interaction: discord.Interaction[discord.Client],
        item: discord.ui.Item[discord.ui.View],
        match: re.Match[str],
    ) -> PeekButton:
        return cls()

    async def callback(self, interaction: discord.Interaction[discord.Client]) -> None:
        await interaction.response.defer()
        secret = await interaction.followup.send("secret 1", ephemeral=True, wait=True)
        await interaction.followup.edit_message(secret.id, content="secret 2")
        PeekButton.clicks.append((interaction, secret.id))


class AskModal(discord.ui.Modal, title="Your name"):
    name: discord.ui.TextInput[AskModal] = discord.ui.TextInput(label="Name", custom_id="name")

    async def on_submit(self, interaction: discord.Interaction[discord.Client]) -> None:
        await interaction.response.send_message(f"hello {self.name.value}", ephemeral=True)


class HarnessBot(commands.Bot):
    def __init__(self) -> None:
        super().__init__(command_prefix=commands.when_mentioned, intents=discord.Intents.default())

    async def setup_hook(self) -> None:
        self.add_dynamic_items(PingButton, PeekButton)
        ping = app_commands.Group(name="ping", description="Ping things")

        @ping.command(name="go", description="Start pinging")
        async def go(interaction: discord.Interaction[discord.Client], start: int = 1) -> None:
            embed = discord.Embed(title="Ping", description=f"starting at {start}")
            view = discord.ui.View(timeout=None)
            view.add_item(PingButton(start))
            await interaction.response.send_message(embed=embed, view=view)

        self.tree.add_command(ping)

        @self.tree.command(name="game", description="Open game threads")
        async def game(interaction: discord.Interaction[discord.Client]) -> None:
            await interaction.response.defer(ephemeral=True, thinking=True)
            channel = interaction.channel
            assert isinstance(channel, discord.TextChannel)
            thread = await channel.create_thread(
                name="domino game", type=discord.ChannelType.public_thread
            )
            await thread.send("Game on!")
            table = await channel.send("table")
            talk = await table.create_thread(name="table talk")
            await talk.send("hello")
            await interaction.followup.send(f"Thread {thread.mention}", ephemeral=True)

        @self.tree.command(name="guarded", description="Needs the send messages permission")
        async def guarded(interaction: discord.Interaction[discord.Client]) -> None:
            channel = interaction.channel
            assert isinstance(channel, discord.TextChannel)
            try:
                await channel.send("hello everyone")
            except discord.Forbidden as exc:
                await interaction.response.send_message(
                    f"no permission ({exc.code})", ephemeral=True
                )
            else:
                await interaction.response.send_message("sent", ephemeral=True)

        @self.tree.command(name="peek", description="A public message with a Peek button")
        async def peek(interaction: discord.Interaction[discord.Client]) -> None:
            view = discord.ui.View(timeout=None)
            view.add_item(PeekButton())
            await interaction.response.send_message("the table", view=view)

        @self.tree.command(name="ask", description="Ask for a name")
        async def ask(interaction: discord.Interaction[discord.Client]) -> None:
            await interaction.response.send_modal(AskModal())

        @self.tree.command(name="pick", description="Pick a colour")
        async def pick(interaction: discord.Interaction[discord.Client], colour: str) -> None:
            await interaction.response.send_message(f"picked {colour}")

        @pick.autocomplete("colour")
        async def colour_choices(
            interaction: discord.Interaction[discord.Client], current: str
        ) -> list[app_commands.Choice[str]]:
            colours = ["red", "green", "blue"]
            return [app_commands.Choice(name=c, value=c) for c in colours if c.startswith(current)]

        await self.tree.sync()


async def test_ready_sync_and_guild_cache(fake_discord: FakeDiscord) -> None:
    fake = fake_discord
    async with running_bot(fake, HarnessBot) as bot:
        assert bot.is_ready()
        assert bot.user is not None and bot.user.id == fake.bot_user.id
        guild = bot.get_guild(fake.guild_id)
        assert guild is not None and guild.owner_id == fake.owner.id
        channel = guild.get_channel(fake.channel_id)
        assert isinstance(channel, discord.TextChannel)
        assert guild.me.guild_permissions.send_messages
        assert channel.permissions_for(guild.me).create_public_threads
        names = {c["name"] for c in fake.commands()}
        assert names == {"ping", "game", "guarded", "peek", "ask", "pick"}
        ping = fake.find_command("ping")
        assert [o["name"] for o in ping["options"]] == ["go"]
        assert fake.sync_count == 1
        assert fake.identify_payloads[0]["intents"] == discord.Intents.default().value
        assert "compress=" in fake.gateway_urls[0]  # discord.py asks for transport compression
    assert not fake.connected
    assert fake.unknown_routes == []


async def test_slash_then_click_edits_and_sends_ephemeral_file(fake_discord: FakeDiscord) -> None:
    fake = fake_discord
    alice = fake.add_user(1001, "alice", "Alice")
    async with running_bot(fake, HarnessBot):
        result = await fake.slash(alice, fake.channel_id, "ping go", {"start": 3})
        assert result.type == 4
        assert not result.ephemeral
        assert result.embed is not None and result.embed["title"] == "Ping"
        message = result.message
        assert message is not None and message.custom_ids() == ["ping:3"]
        assert fake.public_messages() == [message]

        click = await fake.click(alice, message, "ping:3")
        assert click.type == 7
        assert click.content == "pong 3"
        assert message.content == "pong 3" and message.custom_ids() == ["ping:4"]
        assert message.edit_count == 1 and message.history[0].custom_ids() == ["ping:3"]

        (followup,) = await click.wait_for_followups(1)
        assert followup.ephemeral and followup.ephemeral_user_id == alice.id
        assert followup.content == "secret 3"
        (attachment,) = followup.attachments
        assert attachment.filename == "pong.png" and attachment.data == PNG
        assert fake.ephemeral_messages(alice) == [followup]
        assert fake.all_attachments() == []
        assert fake.all_attachments(public_only=False) == [attachment]
        async with aiohttp.ClientSession() as session, session.get(attachment.url) as resp:
            assert await resp.read() == PNG


async def test_deferred_command_creates_threads(fake_discord: FakeDiscord) -> None:
    fake = fake_discord
    alice = fake.add_user(1001, "alice")
    async with running_bot(fake, HarnessBot) as bot:
        result = await fake.slash(alice, fake.channel_id, "game")
        assert result.type == 5 and result.deferred and result.ephemeral
        await result.wait_for_followups(1)
        # the first followup after a "thinking" defer replaces the loading message
        assert result.message is not None and not result.message.loading
        assert result.message.content.startswith("Thread <#")
        threads = fake.threads(fake.channel_id)
        assert [t.name for t in threads] == ["domino game", "table talk"]
        game, talk = threads
        assert [m.content for m in fake.messages(game.id)] == ["Game on!"]
        assert [m.content for m in fake.messages(talk.id)] == ["hello"]
        table = fake.last_message(fake.channel_id)
        assert table is not None and table.content == "table" and table.thread_id == talk.id
        await fake.wait_for(lambda: bot.get_channel(talk.id) is not None)
        assert isinstance(bot.get_channel(game.id), discord.Thread)


async def test_denied_permission_is_forbidden_for_the_bot(fake_discord: FakeDiscord) -> None:
    fake = fake_discord
    alice = fake.add_user(1001, "alice")
    async with running_bot(fake, HarnessBot):
        fake.deny(fake.channel_id, "send_messages")
        result = await fake.slash(alice, fake.channel_id, "guarded")
        assert result.ephemeral and result.content == "no permission (50013)"
        assert fake.public_messages() == []
        (denied,) = fake.error_responses
        assert (denied.method, denied.route, denied.status) == (
            "POST",
            "/channels/{channel_id}/messages",
            403,
        )

        fake.allow(fake.channel_id)
        result = await fake.slash(alice, fake.channel_id, "guarded")
        assert result.content == "sent"
        assert [m.content for m in fake.public_messages()] == ["hello everyone"]


async def test_restart_keeps_dynamic_buttons_working(fake_discord: FakeDiscord) -> None:
    fake = fake_discord
    alice = fake.add_user(1001, "alice")
    async with running_bot(fake, HarnessBot) as first:
        result = await fake.slash(alice, fake.channel_id, "ping go")
        message = result.message
        assert message is not None
    assert first.is_closed() and not fake.connected

    async with running_bot(fake, HarnessBot) as second:
        assert second is not first
        click = await fake.click(alice, message, "ping:1")
        assert click.type == 7
        assert fake.message(message.id).content == "pong 1"
        await click.wait_for_followups(1)
    assert len(fake.identify_payloads) == 2


async def test_two_concurrent_clicks_are_both_answered(fake_discord: FakeDiscord) -> None:
    fake = fake_discord
    alice = fake.add_user(1001, "alice")
    bob = fake.add_user(1002, "bob")
    async with running_bot(fake, HarnessBot):
        first = await fake.slash(alice, fake.channel_id, "ping go", {"start": 1})
        second = await fake.slash(bob, fake.channel_id, "ping go", {"start": 10})
        assert first.message is not None and second.message is not None
        a, b = await asyncio.gather(
            fake.click(alice, first.message, "ping:1"),
            fake.click(bob, second.message, "ping:10"),
        )
        assert (a.type, b.type) == (7, 7)
        assert first.message.content == "pong 1" and second.message.content == "pong 10"
        await a.wait_for_followups(1)
        await b.wait_for_followups(1)
        assert [m.content for m in fake.ephemeral_messages(alice)] == ["secret 1"]
        assert [m.content for m in fake.ephemeral_messages(bob)] == ["secret 10"]


async def test_modal_and_autocomplete(fake_discord: FakeDiscord) -> None:
    fake = fake_discord
    alice = fake.add_user(1001, "alice")
    async with running_bot(fake, HarnessBot):
        asked = await fake.slash(alice, fake.channel_id, "ask")
        assert asked.type == 9 and asked.modal is not None
        answer = await fake.submit_modal(asked, {"name": "Ada"})
        assert answer.content == "hello Ada" and answer.ephemeral

        choices = await fake.autocomplete(alice, fake.channel_id, "pick", "colour", {"colour": "g"})
        assert choices.choices == [{"name": "green", "value": "green"}]
        picked = await fake.slash(alice, fake.channel_id, "pick", {"colour": "green"})
        assert picked.content == "picked green"


async def test_fake_rejects_what_discord_rejects(fake_discord: FakeDiscord) -> None:
    fake = fake_discord
    async with running_bot(fake, HarnessBot) as bot:
        channel = bot.get_channel(fake.channel_id)
        assert isinstance(channel, discord.TextChannel)
        with pytest.raises(discord.HTTPException) as too_long:
            await channel.send("x" * 2001)
        assert too_long.value.status == 400 and too_long.value.code == 50035
        with pytest.raises(discord.NotFound):
            await bot.http.request(discord.http.Route("GET", "/nope"))
        assert fake.unknown_routes == ["GET /nope"]
        fake.unknown_routes.clear()
        with pytest.raises(LookupError):
            await fake.slash(fake.owner, fake.channel_id, "ping nothing")
        with pytest.raises(InteractionTimeout):
            await fake.wait_for(lambda: False, timeout=0.05)


async def test_a_wait_cancelled_as_traffic_comes_ends(fake_discord: FakeDiscord) -> None:
    """A wait of the fake cancelled in the very step the fake sees traffic ends at once (a
    test that stops a person's clicks when it kills the bot does not wait out their time-out)."""
    fake = fake_discord
    waiting = asyncio.create_task(fake.wait_for(lambda: False, timeout=60))
    while fake._changed is None:  # parked until the fake sees traffic
        await asyncio.sleep(0)
    fake._notify()
    waiting.cancel()
    await asyncio.wait([waiting], timeout=10)
    assert waiting.cancelled()


async def test_manual_delete_and_user_messages(fake_discord: FakeDiscord) -> None:
    fake = fake_discord
    alice = fake.add_user(1001, "alice")
    async with running_bot(fake, HarnessBot) as bot:
        result = await fake.slash(alice, fake.channel_id, "ping go")
        message = result.message
        assert message is not None
        await fake.delete_message(fake.channel_id, message.id)
        assert fake.public_messages() == [] and fake.message(message.id).deleted
        with pytest.raises(LookupError):
            await fake.click(alice, message, "ping:1")

        said = await fake.post_user_message(alice, fake.channel_id, "hi bot")
        channel = bot.get_channel(fake.channel_id)
        assert isinstance(channel, discord.TextChannel)
        fetched = await channel.fetch_message(said.id)
        assert fetched.author.id == alice.id and fetched.content == "hi bot"


async def test_dms_and_blocked_dms(fake_discord: FakeDiscord) -> None:
    fake = fake_discord
    alice = fake.add_user(1001, "alice")
    bob = fake.add_user(1002, "bob")
    fake.block_dms(bob)
    async with running_bot(fake, HarnessBot) as bot:
        await (await bot.fetch_user(alice.id)).send("your hand")
        assert [m.content for m in fake.dm_messages(alice)] == ["your hand"]
        with pytest.raises(discord.Forbidden) as blocked:
            await (await bot.fetch_user(bob.id)).send("your hand")
        assert blocked.value.code == 50007
        in_dm = await fake.slash(alice, fake.dm_channel(alice).id, "ping go")
        assert in_dm.message is not None and in_dm.message.channel_id == fake.dm_channel(alice).id


async def test_resume_replays_missed_events(fake_discord: FakeDiscord) -> None:
    fake = fake_discord
    async with running_bot(fake, HarnessBot) as bot:
        await fake.disconnect_gateway()
        lobby = fake.add_channel("lobby")  # dispatched while the bot is away
        await fake.wait_for(lambda: bot.get_channel(lobby.id) is not None)
        assert len(fake.identify_payloads) == 1  # resumed, not re-identified
        assert any(p.get("op") == 6 for p in fake.gateway_received)


async def test_expired_tokens_and_editing_responses_later(fake_discord: FakeDiscord) -> None:
    fake = fake_discord
    alice = fake.add_user(1001, "alice")
    async with running_bot(fake, HarnessBot) as bot:
        result = await fake.slash(alice, fake.channel_id, "ping go")
        assert result.message is not None
        fake.expire_interactions()
        url = f"{fake.api_base}/webhooks/{fake.application_id}/{result.token}/messages/@original"
        async with aiohttp.ClientSession() as session, session.patch(url, json={}) as resp:
            assert resp.status == 401 and (await resp.json())["code"] == 50027
        # a public interaction response is the bot's own message: editable via the channel
        channel = bot.get_channel(fake.channel_id)
        assert isinstance(channel, discord.TextChannel)
        await channel.get_partial_message(result.message.id).edit(content="later", view=None)
        assert result.message.content == "later" and result.message.components == []


class PickView(discord.ui.View):
    def __init__(self) -> None:
        super().__init__(timeout=None)

    @discord.ui.select(
        custom_id="letter",
        options=[
            discord.SelectOption(label="A", value="a"),
            discord.SelectOption(label="B", value="b"),
        ],
    )
    async def letter(
        self, interaction: discord.Interaction[discord.Client], select: discord.ui.Select[PickView]
    ) -> None:
        await interaction.response.edit_message(
            content=f"chose {select.values[0]}",
            attachments=[discord.File(io.BytesIO(b"xyz"), filename="choice.txt")],
        )


class RoutesBot(commands.Bot):
    """Uses members + message content intents, guild-scoped commands and assorted routes."""

    def __init__(self, guild_id: int, forum_id: int) -> None:
        intents = discord.Intents.default()
        intents.members = True
        intents.message_content = True
        super().__init__(command_prefix="!", intents=intents)
        self.guild_id = guild_id
        self.forum_id = forum_id
        self.seen: list[str] = []

    async def setup_hook(self) -> None:
        @self.tree.command(name="who", description="Greets a member")
        async def who(
            interaction: discord.Interaction[discord.Client],
            target: discord.Member,
            times: app_commands.Range[int, 1, 5] = 1,
        ) -> None:
            await interaction.response.send_message(
                f"{target.display_name} x{times}", view=PickView()
            )
            original = await interaction.original_response()
            await original.reply("reply!")
            await original.add_reaction("\N{THUMBS UP SIGN}")
            await original.pin()

        @self.tree.command(name="post", description="Posts in the forum")
        async def post(interaction: discord.Interaction[discord.Client]) -> None:
            assert interaction.guild is not None
            forum = interaction.guild.get_channel(self.forum_id)
            assert isinstance(forum, discord.ForumChannel)
            made = await forum.create_thread(
                name="post", content="first", file=discord.File(io.BytesIO(b"pp"), "p.txt")
            )
            await interaction.response.send_message(f"made {made.thread.id}")

        guild = discord.Object(self.guild_id)
        self.tree.copy_global_to(guild=guild)
        self.tree.clear_commands(guild=None)
        await self.tree.sync(guild=guild)

    async def on_message(self, message: discord.Message) -> None:
        self.seen.append(message.content)

    async def on_member_join(self, member: discord.Member) -> None:
        self.seen.append(f"join {member.id}")


async def test_more_routes_and_events(fake_discord: FakeDiscord) -> None:
    fake = fake_discord
    forum = fake.add_channel("forum", type=15)
    alice = fake.add_user(1001, "alice")
    bob = fake.add_user(1002, "bob", "Bob")
    async with running_bot(fake, lambda: RoutesBot(fake.guild_id, forum.id)) as bot:
        assert fake.commands() == [] and {c["name"] for c in fake.commands(fake.guild_id)} == {
            "who",
            "post",
        }
        result = await fake.slash(alice, fake.channel_id, "who", {"target": bob, "times": 2})
        assert result.content == "Bob x2"
        message = result.message
        assert message is not None
        await fake.wait_for(lambda: message.pinned)
        assert set(message.reactions) == {"\N{THUMBS UP SIGN}"}
        reply = fake.last_message(fake.channel_id)
        assert reply is not None and reply.type == 19 and reply.content == "reply!"
        with pytest.raises(ValueError):
            await fake.slash(alice, fake.channel_id, "who", {"target": bob, "times": 9})

        chose = await fake.select(alice, message, "letter", ["b"])
        assert chose.type == 7 and message.content == "chose b"
        assert [a.filename for a in message.attachments] == ["choice.txt"]

        made = await fake.slash(alice, fake.channel_id, "post")
        (thread,) = fake.threads(forum.id)
        assert made.content == f"made {thread.id}"
        (starter,) = fake.messages(thread.id)
        assert starter.id == thread.id and starter.attachments[0].data == b"pp"

        channel = bot.get_channel(fake.channel_id)
        assert isinstance(channel, discord.TextChannel)
        history = [m.content async for m in channel.history(limit=10)]
        assert history == [f"made {thread.id}", "reply!", "chose b"]
        member = await channel.guild.fetch_member(bob.id)
        assert member.display_name == "Bob"

        carol = fake.add_user(1003, "carol")
        await fake.post_user_message(alice, fake.channel_id, "hello there")
        await fake.wait_for(lambda: {"hello there", f"join {carol.id}"} <= set(bot.seen))

        fake.fail("POST", r"^/channels/\d+/messages$", status=429, retry_after=0.01)
        sent = await channel.send("after a rate limit")
        assert sent.content == "after a rate limit"
        assert [r.status for r in fake.error_responses] == [429]

        fake.set_member_permissions(fake.bot_user.id, discord.Permissions(view_channel=True))
        await fake.wait_for(lambda: not channel.permissions_for(channel.guild.me).send_messages)


async def test_components_v2_messages_and_their_limits(fake_discord: FakeDiscord) -> None:
    """A LayoutView message arrives with the IS_COMPONENTS_V2 flag, its picture in a media
    gallery with the alt text; the fake refuses what Discord refuses in that layout: content or
    embeds beside the flag, more than 40 components, more than 4,000 characters of text, a
    section without its accessory, a layout component without the flag, removing the flag."""
    fake = fake_discord
    async with running_bot(fake, HarnessBot) as bot:
        channel = bot.get_channel(fake.channel_id)
        assert isinstance(channel, discord.TextChannel)

        class Layout(discord.ui.LayoutView):
            pass

        layout = Layout(timeout=None)
        picture = discord.File(io.BytesIO(tiny_png()), filename="t.png", description="two dots")
        layout.add_item(
            discord.ui.Container(
                discord.ui.TextDisplay("**Hello**"),
                discord.ui.MediaGallery(discord.MediaGalleryItem(picture)),
                discord.ui.Section(
                    "a line",
                    accessory=discord.ui.Button(label="Press", custom_id="press"),
                ),
                accent_colour=0x2ECC71,
            )
        )
        sent = await channel.send(view=layout, file=picture)
        stored = fake.message(sent.id)
        assert stored.v2 and not stored.content and not stored.embeds
        container = stored.container()
        assert container is not None and container["accent_color"] == 0x2ECC71
        ((attachment, alt),) = stored.media()
        assert attachment is not None and attachment.is_png and alt == "two dots"
        assert "**Hello**" in stored.text() and stored.custom_ids() == ["press"]

        route = discord.http.Route(
            "POST", "/channels/{channel_id}/messages", channel_id=fake.channel_id
        )
        text = {"type": 10, "content": "x"}
        bad = {
            "content": {"flags": 1 << 15, "content": "hi", "components": [text]},
            "embeds": {"flags": 1 << 15, "embeds": [{"title": "t"}], "components": [text]},
            "41 components": {"flags": 1 << 15, "components": [text] * 41},
            "4,001 characters": {
                "flags": 1 << 15,
                "components": [{"type": 10, "content": "x" * 2000}] * 2 + [text],
            },
            "a bare section": {
                "flags": 1 << 15,
                "components": [{"type": 9, "components": [text]}],
            },
            "no flag": {"components": [{"type": 17, "components": [text]}]},
            "a button at the top": {
                "flags": 1 << 15,
                "components": [{"type": 2, "style": 1, "label": "x", "custom_id": "x"}],
            },
        }
        for what, payload in bad.items():
            with pytest.raises(discord.HTTPException) as refused:
                await bot.http.request(route, json=payload)
            assert refused.value.status == 400 and refused.value.code == 50035, what
        fine = await bot.http.request(route, json={"flags": 1 << 15, "components": [text] * 40})
        assert fake.message(int(fine["id"])).v2

        with pytest.raises(discord.HTTPException) as kept:
            await sent.edit(content="back to text", view=None)
        assert kept.value.status == 400
        legacy = await channel.send("old style")
        await legacy.edit(content=None, view=layout, attachments=[])
        assert fake.message(legacy.id).v2 and not fake.message(legacy.id).content


async def test_an_ephemeral_followup_of_an_update_is_edited_by_its_id(
    fake_discord: FakeDiscord,
) -> None:
    """Discord: a click answered with DEFERRED_UPDATE_MESSAGE has the clicked (public) message
    as its ``@original``; a followup with the ephemeral flag is a new message its clicker alone
    sees, which *Edit Followup Message* edits by id with the same token only (another
    interaction's token gets 10008, a token past 15 minutes 401 50027)."""
    fake = fake_discord
    alice = fake.add_user(1001, "alice", "Alice")
    PeekButton.clicks.clear()
    async with running_bot(fake, HarnessBot):
        result = await fake.slash(alice, fake.channel_id, "peek")
        public = result.message
        assert public is not None and not public.ephemeral
        click = await fake.click(alice, public, "peek")
        assert click.type == 6 and click.original_id == public.id
        (secret,) = await click.wait_for_followups(1)
        await fake.wait_for(lambda: len(PeekButton.clicks) == 1, what="the edit by id")
        secret = fake.message(secret.id)
        assert secret.ephemeral and secret.ephemeral_user_id == alice.id
        assert secret.content == "secret 2" and [v.content for v in secret.history] == ["secret 1"]
        assert public.content == "the table" and public.edit_count == 0
        assert fake.ephemeral_messages(alice) == [secret]

        again = await fake.click(alice, public, "peek")
        await again.wait_for_followups(1)
        await fake.wait_for(lambda: len(PeekButton.clicks) == 2, what="the second click")
        (first, first_id), (second, _) = PeekButton.clicks
        with pytest.raises(discord.NotFound):
            await second.followup.edit_message(first_id, content="not yours")
        click.expire()
        with pytest.raises(discord.HTTPException) as refused:
            await first.followup.edit_message(first_id, content="too late")
        assert refused.value.status == 401
        assert fake.message(first_id).content == "secret 2"
