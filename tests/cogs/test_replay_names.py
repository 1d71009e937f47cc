"""``/domino replay`` through the fake Discord: who is named, and how, in the text, the alt text
and the picture; a replay that cannot be made posts nothing for everyone."""

from __future__ import annotations

import dataclasses
from pathlib import Path
from typing import Any

import discord
import pytest

from bot.tables import replay as bot_replay
from cogs.names import escape_name
from tests.cogs.helpers import (
    TestBot,
    answer,
    button,
    forget_me,
    new_table,
    settings_for,
    start_with_computers,
)
from tests.fakediscord import FakeDiscord, InteractionResult, StoredMessage, running_bot
from tests.fakediscord.models import DEFAULT_MEMBER_PERMISSIONS

BOLD_NICK = "**Bo** ||x||"


def replay_alt_text(fake: FakeDiscord) -> str:
    """The alt text of the latest replay the bot sent."""
    return [
        a["description"]
        for r in fake.requests
        if isinstance(r.json, dict)
        for a in (r.json.get("attachments") or [])
        if a.get("filename") == "replay.gif"
    ][-1]


async def shown(result: InteractionResult) -> StoredMessage:
    (message,) = await result.wait_for_followups(1)
    return message


async def test_replay_names_players_as_the_reader_may_see_them(
    fake_discord: FakeDiscord, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    fake = fake_discord
    alice = fake.add_user(1001, "alice", "Alice")
    bob = fake.add_user(1002, "bob", "Bob")
    carol = fake.add_user(1003, "carol", "Carol")
    fake.guild.members[alice.id].nick = "AliNick"
    fake.guild.members[bob.id].nick = BOLD_NICK
    other = fake.add_guild("Other server")
    elsewhere = fake.add_channel("general", guild_id=other.id).id
    fake._add_member(other, alice, DEFAULT_MEMBER_PERMISSIONS)
    # #general is public: its matches may be posted on another server (anonymised).
    fake.set_everyone_permissions(discord.Permissions(view_channel=True))
    drawn: list[list[str]] = []
    real_draw = bot_replay.draw_file

    def spy(match: Any, actions: Any, hand: Any, names: list[str], *args: Any) -> Any:
        drawn.append(list(names))
        return real_draw(match, actions, hand, names, *args)

    monkeypatch.setattr(bot_replay, "draw_file", spy)
    monkeypatch.setattr(bot_replay, "COOLDOWN", 0.0)  # one person asks several times here
    settings = dataclasses.replace(settings_for(fake, tmp_path / "db.sqlite3"), dev_guild_id=None)
    async with running_bot(fake, lambda: TestBot(settings)) as bot:
        # Partners: Alice, Bob, Carol and a computer; Alice resigns, then Carol is forgotten.
        result, tid = await new_table(fake, bot, alice, variant="partners")
        lobby = result.message
        assert lobby is not None
        for guest in (bob, carol):
            await fake.click(guest, lobby, button(lobby, "join"))
            await fake.wait_for(lambda g=guest: f"<@{g.id}>" in lobby.text())
        await start_with_computers(fake, bot, alice, lobby)
        asked = await fake.slash(alice, fake.channel_id, "domino leave", {})
        assert asked.message is not None
        await fake.click(alice, asked.message, button(asked.message, "resignok"))
        await fake.wait_for(lambda: not bot.svc.open_tables())
        await bot.svc.idle()
        await forget_me(fake, carol)
        seat_of = {s.user_id: s.seat for s in await bot.svc.store.seats.list(tid)}
        computer = seat_of[None] + 1
        (forgotten,) = set(seat_of) - {alice.id, bob.id, None}  # Carol, now under an alias id

        def expected(by_user: dict[int | None, str]) -> list[str]:
            return [by_user[u] for u in sorted(seat_of, key=lambda u: seat_of[u])]

        # On its server, shared: people as they sat there, escaped; the forgotten one and the
        # computer named like everywhere else.
        here = expected(
            {
                alice.id: "AliNick",
                bob.id: BOLD_NICK,
                None: f"Computer {computer}",
                forgotten: "a former player",
            }
        )
        share = {"table": tid, "share": True}
        public = await shown(await fake.slash(alice, fake.channel_id, "domino replay", share))
        assert not public.ephemeral
        assert f"Partners (Latin) · {', '.join(escape_name(n) for n in here)} · " in public.content
        assert BOLD_NICK not in public.content and "||x||" not in public.content
        assert "not named" not in public.content
        assert drawn[-1] == here
        assert replay_alt_text(fake).startswith(f"Replay of the match between {', '.join(here)}")
        typed = await fake.autocomplete(alice, fake.channel_id, "domino replay", "table", {})
        assert typed.choices and typed.choices[0]["name"].startswith(
            f"Table {tid} · Partners (Latin) · {', '.join(here)} · "
        )

        # In the reader's language: the computer and the forgotten player in Spanish.
        spanish = expected(
            {
                alice.id: "AliNick",
                bob.id: BOLD_NICK,
                None: f"Máquina {computer}",
                forgotten: "un antiguo jugador",
            }
        )
        mine = await fake.slash(
            alice, fake.channel_id, "domino replay", {"table": tid}, locale="es-ES"
        )
        message = await shown(mine)
        assert message.ephemeral and drawn[-1] == spanish
        assert ", ".join(escape_name(n) for n in spanish) in message.content
        typed = await fake.autocomplete(
            alice, fake.channel_id, "domino replay", "table", {}, locale="es-ES"
        )
        assert typed.choices and ", ".join(spanish) in typed.choices[0]["name"]

        # On another server: Alice by her global name, no one else named, no nickname.
        there = expected(
            {
                alice.id: "Alice",
                bob.id: f"Player {seat_of[bob.id] + 1}",
                None: f"Computer {computer}",
                forgotten: f"Player {seat_of[forgotten] + 1}",
            }
        )
        typed = await fake.autocomplete(alice, elsewhere, "domino replay", "table", {})
        assert typed.choices and ", ".join(there) in typed.choices[0]["name"]
        public = await shown(await fake.slash(alice, elsewhere, "domino replay", share))
        assert not public.ephemeral and drawn[-1] == there
        assert ", ".join(there) in public.content
        assert "Players of matches on other servers are not named." in public.content
        for secret in ("AliNick", "**Bo**", "\\*\\*Bo", "Bob"):
            assert secret not in public.content
            assert secret not in typed.choices[0]["name"]
            assert secret not in replay_alt_text(fake)

        # A hand that was not played: only Alice is told, nothing is posted for everyone.
        posted = len(fake.public_messages())
        bad = await fake.slash(
            alice, fake.channel_id, "domino replay", {"table": tid, "hand": 9, "share": True}
        )
        assert "Hand 9 has no moves to replay" in await answer(bad)
        assert bad.ephemeral and not bad.deferred
        await bot.svc.idle()
        assert len(fake.public_messages()) == posted
