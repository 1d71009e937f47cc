"""Nobody is notified by a message about what he just did: the host's own lobby, the
challenger's own challenge, the match-end post of whoever resigned; those the message
concerns who did not act are."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from tests.cogs.helpers import button, factory, game_message, settle, table_id_of
from tests.cogs.test_match_end import match_end, resign
from tests.fakediscord import FakeDiscord, running_bot
from tests.fakediscord.models import StoredMessage


def notified(fake: FakeDiscord, message: StoredMessage) -> set[int]:
    """Whom the post that created ``message`` notifies: the people it mentions whom its
    request's ``allowed_mentions`` let Discord notify."""
    mentioned = {int(x) for x in re.findall(r"<@!?(\d+)>", message.text())}
    for record in reversed(fake.requests):
        body: Any = record.json if isinstance(record.json, dict) else {}
        if isinstance(body.get("data"), dict):
            body = body["data"]
        if record.method != "POST" or body.get("components") != message.components:
            continue
        allowed = body.get("allowed_mentions")
        if allowed is None or "users" in (allowed.get("parse") or []):
            return mentioned
        return mentioned & {int(u) for u in allowed.get("users") or []}
    raise AssertionError(f"no request made message {message.id}")


async def test_nobody_is_notified_of_what_he_just_did(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    fake = fake_discord
    alice = fake.add_user(1001, "alice", "Alice")
    bob = fake.add_user(1002, "bob", "Bob")
    async with running_bot(fake, factory(fake, tmp_path / "db.sqlite3")) as bot:
        # Alice's own lobby names her in her seat, and notifies nobody.
        opened = await fake.slash(alice, fake.channel_id, "domino new", {"variant": "draw"})
        assert opened.message is not None and f"<@{alice.id}>" in opened.message.text()
        assert notified(fake, opened.message) == set()
        await fake.slash(alice, fake.channel_id, "domino cancel", {})

        # Her challenge notifies Bob, not her.
        asked = await fake.slash(
            alice, fake.channel_id, "domino challenge", {"variant": "draw", "player": bob}
        )
        challenge = asked.message
        assert challenge is not None and f"<@{alice.id}>" in challenge.text()
        assert notified(fake, challenge) == {bob.id}

        # Bob accepts and the match begins; Bob resigns: the match-end post names both and
        # notifies Alice alone.
        tid = table_id_of(challenge)
        await fake.click(bob, challenge, button(challenge, "accept"))
        thread = (await game_message(fake, bot, tid)).channel_id
        await resign(fake, bot, bob, thread)
        end = await fake.wait_for(lambda: match_end(fake, thread), what="the match end")
        await settle(bot)
        assert f"<@{alice.id}>" in end.text() and f"<@{bob.id}>" in end.text()
        assert notified(fake, end) == {alice.id}
