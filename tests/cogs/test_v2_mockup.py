"""The picture of a game message in docs/commands.md is drawn from what the bot really sent:
the mock-up of a components-v2 payload shows every text, the picture and every button of it, in
headless Chromium at a phone's width."""

from __future__ import annotations

import base64
import io
import re
from pathlib import Path

import pytest
from PIL import Image

from tests.fakediscord.mockup import PHONE, game_message, message_html, screenshot
from tests.web.browser import CHROMIUM, DRIVER, find


def _plain(markdown: str) -> list[str]:
    """The words of a text display, markup left out."""
    text = re.sub(r"<@!?\d+>|<t:\d+(?::\w)?>|\*\*|^-# |\\", " ", markdown, flags=re.M)
    return [w for w in re.split(r"\s+", text) if w]


async def test_the_mock_up_shows_everything_the_payload_holds(tmp_path: Path) -> None:
    message, names = await game_message(tmp_path)
    assert message.v2
    page = message_html(message, names, now=0)
    comps = message.all_components()
    texts = [c["content"] for c in comps if c.get("type") == 10]
    assert texts
    for text in texts:
        for word in _plain(text):
            assert word.replace("&", "&amp;").replace("<", "&lt;") in page, word
    labels = [c["label"] for c in comps if c.get("type") == 2 and c.get("label")]
    assert "My tiles" in labels and "Resign" in labels
    for label in labels:
        assert f">{label}</span>" in page
    (picture, description), = message.media()
    assert picture is not None and description
    assert base64.b64encode(picture.data).decode() in page
    assert "@Ana" in page and "Mock-up" in page
    if find(CHROMIUM, "chromium") is None or find(DRIVER, "chromedriver") is None:
        pytest.skip("no Chromium here: the page was checked, not photographed")
    out = tmp_path / "message.png"
    screenshot(page, out)
    shot = Image.open(io.BytesIO(out.read_bytes()))
    assert shot.width == PHONE and shot.height > PHONE
