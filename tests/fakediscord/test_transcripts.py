"""The transcripts of docs/transcripts say what the fake Discord received: a flow played in
Spanish, every version of every message it stored (public and private), each message's in
the order Discord stored them, with its words, its buttons' labels and its pictures' alt text."""

from __future__ import annotations

import re
from pathlib import Path

from tests.fakediscord.models import StoredMessage
from tests.fakediscord.transcripts import FLOWS, run_flow

PRACTICE = next(f for f in FLOWS if f.slug == "practice")


def fragments(version: StoredMessage) -> list[str]:
    """What a person reads on ``version``, in order, as pieces of plain text: each text
    display's words between Discord's tokens (mentions, timestamps), the buttons' labels
    and the pictures' alt text."""
    out: list[str] = []
    texts = [version.content, *(str(e.get(k) or "") for e in version.embeds
                                for k in ("title", "description"))]
    for text in texts:
        for line in text.splitlines():
            out += [p.strip() for p in re.split(r"<[^>]+>|\*\*", line) if p.strip()]
    for comp in version.all_components():
        if comp.get("type") == 10:
            for line in str(comp["content"]).splitlines():
                out += [p.strip() for p in re.split(r"<[^>]+>|\*\*", line) if p.strip()]
        elif comp.get("type") == 2 and comp.get("label"):
            out.append(f"[{comp['label']}")
        elif comp.get("type") == 12:
            out += [str(item.get("description")) for item in comp.get("items", [])]
    return out


def versions(fake: object) -> list[StoredMessage]:
    """Every version of every message the bot made, in the order Discord stored them (the
    fake's own times), without the empty "thinking…" ones."""
    found = []
    for message in [*fake._messages.values(), *fake.deleted_messages]:  # type: ignore[attr-defined]
        if message.author.id != fake.bot_user.id:  # type: ignore[attr-defined]
            continue
        for version in [*message.history, message]:
            if version.loading and not version.components and not version.content:
                continue
            found.append(version)
    return sorted(found, key=lambda v: v.edited_at or v.created_at)


async def test_a_transcript_holds_what_discord_received_in_order(tmp_path: Path) -> None:
    result = await run_flow(PRACTICE, "es-ES", tmp_path, short=False)
    text = result.markdown
    stored = versions(result.fake)
    assert any(not v.ephemeral for v in stored) and any(v.ephemeral for v in stored)
    # Each message's versions in the order Discord stored them (what one click causes at
    # once may come in any order: the transcript puts the clicker's own answer first, then
    # the public messages by channel and message).
    by_message = {v.id: [w for w in stored if w.id == v.id] for v in stored}
    assert len({v.channel_id for v in stored if not v.ephemeral}) == 2, (
        "the channel of the command and the practice's thread")
    for sequence in by_message.values():
        cursor = 0
        for version in sequence:
            for piece in fragments(version):
                at = text.find(piece, cursor)
                assert at >= 0, f"{piece!r} of message {version.id} missing after {cursor}"
                cursor = at + len(piece)
    # The public messages are numbered in the order Discord created them.
    public = sorted({v.id: v for v in stored if not v.ephemeral}.values(), key=lambda v: v.id)
    for number, message in enumerate(public, 1):
        header = text.index(f"**New** · message {number} in ")
        first = next(v for v in stored if v.id == message.id)
        assert fragments(first), f"message {message.id} shows nothing"
        assert text.index(fragments(first)[0], header) > header
    # Private answers are marked as such, one header for each of their versions; the
    # person's own acts are there, in his language.
    private = [v for v in stored if v.ephemeral]
    assert text.count("🔒 only Ana sees this") == len(private)
    assert "👤 **Ana** runs `/domino practice variant:draw`" in text
    assert re.search(r"👤 \*\*Ana\*\* presses \*\*Pista", text), "the hint button, in Spanish"
    # Shortened, the transcript still ends each message in its last state.
    (tmp_path / "again").mkdir()
    short = await run_flow(PRACTICE, "es-ES", tmp_path / "again")
    for message in short.fake.public_messages():
        for piece in fragments(message):
            assert piece in short.markdown, piece
