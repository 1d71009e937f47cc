"""A picture of a components-v2 message (or an embed) as the fake Discord received it: no
Discord client.

:func:`message_html` turns a stored message's payload (its container, text displays, media
gallery, sections with their button, action rows and the attachments it carries) into one
HTML page in the colours of Discord's dark theme, on a phone's width; :func:`screenshot`
photographs it in headless Chromium. Only what the payload says is drawn (Discord's own
markdown is read for bold, small print, quotes and mentions); the page says it is a mock-up.

``python -m tests.fakediscord.mockup OUT.png`` plays a few moves of a game against a computer
with the real bot and the fake Discord, and photographs the game message (the picture in
docs/commands.md).
"""

from __future__ import annotations

import asyncio
import base64
import html
import re
import sys
import tempfile
import time
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from tests.fakediscord.models import StoredMessage

JSON = dict[str, Any]
PHONE = 380
BUTTON_COLOURS = {1: "#5865f2", 2: "#4e5058", 3: "#248046", 4: "#da373c", 5: "#4e5058"}
NOTE = (
    "Mock-up drawn from the components-v2 payload the bot sent to the test Discord "
    "(tests/fakediscord/mockup.py), not a screenshot of Discord's app."
)
STYLE = """
html { overflow: hidden; }  /* the window is made as tall as the page: no scroll bar */
body { margin: 0; background: #313338; color: #dbdee1; width: %(width)dpx;
       font: 15px/1.375 "DejaVu Sans", sans-serif; }
.msg { padding: 8px 10px 10px 10px; }
.author { font-weight: 600; color: #f2f3f5; margin-bottom: 4px; }
.author span { background: #5865f2; color: #fff; font-size: 10px; border-radius: 3px;
               padding: 1px 4px; margin-left: 4px; vertical-align: 2px; }
.container { background: #2b2d31; border-radius: 8px; border-left: 4px solid %(accent)s;
             padding: 10px 12px; display: flex; flex-direction: column; gap: 8px; }
.text p { margin: 0; }
.small { font-size: 12px; color: #949ba4; }
.stamp { background: rgba(78, 80, 88, .5); border-radius: 3px; padding: 0 2px; }
.mention { background: rgba(88, 101, 242, .3); color: #c9cdfb; border-radius: 3px;
           padding: 0 2px; }
.quote { border-left: 4px solid #4e5058; padding-left: 8px; }
.gallery img { width: 100%%; border-radius: 6px; display: block; }
.section { display: flex; align-items: center; gap: 8px; }
.section .text { flex: 1; }
.row { display: flex; flex-wrap: wrap; gap: 8px; }
.button { color: #fff; border-radius: 4px; padding: 4px 14px; font-size: 14px;
          font-weight: 500; white-space: nowrap; }
.disabled { opacity: .5; }
.select { background: #1e1f22; border-radius: 4px; padding: 8px; width: 100%%;
          color: #949ba4; }
hr { border: 0; border-top: 1px solid #3f4147; margin: 2px 0; width: 100%%; }
.note { font-size: 11px; color: #949ba4; padding: 6px 10px 10px 10px; font-style: italic; }
"""


def _when(stamp: int, style: str, now: float) -> str:
    """A Discord timestamp as the client shows it (relative ones from ``now``)."""
    if style != "R":
        return time.strftime("%d %b %Y %H:%M", time.gmtime(stamp))
    seconds = round(stamp - now)
    amount, unit = (abs(seconds), "second") if abs(seconds) < 90 else (abs(seconds) // 60, "minute")
    words = f"{amount} {unit}{'s' if amount != 1 else ''}"
    return f"in {words}" if seconds >= 0 else f"{words} ago"


def _inline(text: str, names: Mapping[int, str], now: float) -> str:
    """One line of Discord markdown as HTML: escapes, bold, italics, code, mentions and
    timestamps."""
    out = html.escape(text, quote=False)
    out = re.sub(
        r"&lt;t:(\d+)(?::([tTdDfFR]))?&gt;",
        lambda m: f'<span class="stamp">{_when(int(m[1]), m[2] or "f", now)}</span>',
        out,
    )
    out = re.sub(
        r"&lt;@!?(\d+)&gt;",
        lambda m: f'<span class="mention">@{html.escape(names.get(int(m[1]), m[1]))}</span>',
        out,
    )
    out = re.sub(r"\*\*(.+?)\*\*", r"<b>\1</b>", out)
    out = re.sub(r"(?<![\w*])\*(?!\s)(.+?)(?<!\s)\*(?![\w*])", r"<i>\1</i>", out)
    out = re.sub(r"`([^`]+)`", r"<code>\1</code>", out)
    return re.sub(r"\\([\\*_`~|>#\[\]()<@-])", r"\1", out)  # escaped characters read plain


def _markdown(text: str, names: Mapping[int, str], now: float) -> str:
    lines = []
    for line in text.split("\n"):
        if line.startswith("-# "):
            lines.append(f'<p class="small">{_inline(line[3:], names, now)}</p>')
        elif line.startswith("> "):
            lines.append(f'<p class="quote">{_inline(line[2:], names, now)}</p>')
        elif line.startswith("## "):
            lines.append(f'<p><b style="font-size:18px">{_inline(line[3:], names, now)}</b></p>')
        elif line.startswith("### "):
            lines.append(f"<p><b>{_inline(line[4:], names, now)}</b></p>")
        else:
            lines.append(f"<p>{_inline(line, names, now) or '&nbsp;'}</p>")
    return '<div class="text">' + "".join(lines) + "</div>"


def _button(comp: JSON) -> str:
    colour = BUTTON_COLOURS.get(int(comp.get("style", 2)), "#4e5058")
    label = html.escape(str(comp.get("label") or (comp.get("emoji") or {}).get("name") or ""))
    disabled = " disabled" if comp.get("disabled") else ""
    return f'<span class="button{disabled}" style="background:{colour}">{label}</span>'


def _component(comp: JSON, message: StoredMessage, names: Mapping[int, str], now: float) -> str:
    kind = comp.get("type")
    if kind == 10:
        return _markdown(str(comp.get("content", "")), names, now)
    if kind == 12:
        items = []
        for item in comp.get("items", []):
            url = str((item.get("media") or {}).get("url", ""))
            name = url.removeprefix("attachment://")
            att = message.attachment(name)
            if att is None:
                continue
            data = base64.b64encode(att.data).decode()
            alt = html.escape(str(item.get("description") or ""))
            items.append(f'<img alt="{alt}" src="data:image/png;base64,{data}">')
        return '<div class="gallery">' + "".join(items) + "</div>"
    if kind == 9:
        texts = "".join(_component(c, message, names, now) for c in comp.get("components", []))
        accessory = comp.get("accessory") or {}
        side = _button(accessory) if accessory.get("type") == 2 else ""
        return f'<div class="section"><div class="text">{texts}</div>{side}</div>'
    if kind == 1:
        parts = []
        for c in comp.get("components", []):
            if c.get("type") == 2:
                parts.append(_button(c))
            else:  # a select menu
                parts.append(
                    f'<div class="select">{html.escape(str(c.get("placeholder", "")))}</div>'
                )
        return '<div class="row">' + "".join(parts) + "</div>"
    if kind == 14:
        return "<hr>"
    if kind == 17:
        return "".join(_component(c, message, names, now) for c in comp.get("components", []))
    return ""


def _embed(embed: JSON, message: StoredMessage, names: Mapping[int, str], now: float) -> str:
    """An embed (the messages that are not components v2): title, text, fields, picture."""
    parts = []
    if embed.get("title"):
        parts.append(f"<p><b>{_inline(str(embed['title']), names, now)}</b></p>")
    if embed.get("description"):
        parts.append(_markdown(str(embed["description"]), names, now))
    for field in embed.get("fields") or []:
        parts.append(f"<p><b>{_inline(str(field.get('name', '')), names, now)}</b></p>")
        parts.append(_markdown(str(field.get("value", "")), names, now))
    url = str((embed.get("image") or {}).get("url", ""))
    att = message.attachment(url.removeprefix("attachment://")) if url else None
    if att is not None:
        data = base64.b64encode(att.data).decode()
        parts.append(f'<div class="gallery"><img src="data:image/png;base64,{data}"></div>')
    if (embed.get("footer") or {}).get("text"):
        parts.append(f'<p class="small">{_inline(str(embed["footer"]["text"]), names, now)}</p>')
    return "".join(parts)


def message_html(
    message: StoredMessage,
    names: Mapping[int, str],
    *,
    author: str = "Domino",
    width: int = PHONE,
    now: float | None = None,
) -> str:
    """The page of a components-v2 ``message``, or of one with embeds (``names``: user id ->
    name for mentions; relative timestamps read from ``now``, by default the time of the
    call)."""
    now = time.time() if now is None else now
    container = message.container() if message.v2 else (message.embeds or [None])[0]
    accent = "#4e5058"
    colour = None if container is None else container.get("accent_color", container.get("color"))
    if colour is not None:
        accent = f"#{int(colour):06x}"
    body = _markdown(message.content, names, now) if message.content else ""
    body += "".join(
        f'<div class="container">{_embed(e, message, names, now)}</div>' for e in message.embeds
    )
    body += "".join(
        f'<div class="container">{_component(c, message, names, now)}</div>'
        if c.get("type") == 17
        else _component(c, message, names, now)
        for c in message.components
    )
    style = STYLE % {"width": width, "accent": accent}
    return (
        f"<!doctype html><html><head><meta charset='utf-8'><style>{style}</style></head>"
        f'<body><div class="msg"><div class="author">{html.escape(author)}<span>APP</span>'
        f'</div>{body}</div><div class="note">{html.escape(NOTE)}</div></body></html>'
    )


def screenshot(page: str, out: Path, width: int = PHONE) -> None:
    """``page`` photographed whole in headless Chromium, ``width`` CSS px wide, as PNG."""
    screenshots([(page, out)], width)


def screenshots(pages: list[tuple[str, Path]], width: int = PHONE) -> None:
    """Each ``(page, out)`` photographed whole as :func:`screenshot` does, in one browser."""
    from tests.web.browser import chromium

    with tempfile.TemporaryDirectory() as folder, chromium(width, 800) as driver:
        for number, (page, out) in enumerate(pages):
            path = Path(folder) / f"message{number}.html"
            path.write_text(page, encoding="utf-8")
            driver.set_window_size(width, 800)  # type: ignore[attr-defined]
            driver.get(path.as_uri())  # type: ignore[attr-defined]
            height = driver.execute_script(  # type: ignore[attr-defined]
                "return document.documentElement.scrollHeight"
            )
            driver.set_window_size(width, int(height) + 140)  # type: ignore[attr-defined]
            body = driver.find_element("tag name", "body")  # type: ignore[attr-defined]
            out.write_bytes(body.screenshot_as_png)


async def game_message(folder: Path) -> tuple[StoredMessage, dict[int, str]]:
    """A game of two, Ana against a computer, a few moves in: its game message."""
    from tests.cogs.helpers import (
        factory,
        human_to_move,
        new_table,
        play_turn,
        settle,
        start_with_computers,
    )
    from tests.cogs.helpers import game_message as current
    from tests.fakediscord import FakeDiscord, running_bot

    async with FakeDiscord() as fake:
        ana = fake.add_user(1001, "ana", "Ana")
        async with running_bot(fake, factory(fake, folder / "db.sqlite3")) as bot:
            result, tid = await new_table(fake, bot, ana, variant="two", target=100)
            assert result.message is not None
            await start_with_computers(fake, bot, ana, result.message)
            hands: dict[int, Any] = {}
            for _ in range(4):
                who = await fake.wait_for(lambda: human_to_move(bot, tid), timeout=20)
                if who == "over":
                    break
                await play_turn(fake, bot, tid, ana, hands)
            await fake.wait_for(lambda: human_to_move(bot, tid), timeout=20)
            await settle(bot)
            message = (await current(fake, bot, tid)).snapshot()
        return message, {ana.id: "Ana"}


def main() -> None:
    out = Path(sys.argv[1] if len(sys.argv) > 1 else "v2-game-message.png")
    with tempfile.TemporaryDirectory() as folder:
        message, names = asyncio.run(game_message(Path(folder)))
    screenshot(message_html(message, names), out)
    print(f"wrote {out}")


if __name__ == "__main__":
    main()
