"""Fixtures for the cog tests: a fake Discord, and pictures even while ``render/`` is absent."""

from __future__ import annotations

import io
from collections.abc import Callable
from typing import Any

import pytest
from PIL import Image
from PIL.PngImagePlugin import PngInfo

from bot.workers import pictures
from domino import View
from tests.fakediscord.plugin import fake_discord

__all__ = ["fake_discord", "pictures_on"]


def _png(text: str) -> bytes:
    info = PngInfo()
    info.add_text("state", text)
    buffer = io.BytesIO()
    Image.new("RGB", (2, 2)).save(buffer, "PNG", pnginfo=info)
    return buffer.getvalue()


def stand_in_table(view: View, names: list[str], **options: Any) -> bytes:
    """A picture that encodes everything it was given (so equal pictures mean equal input)."""
    assert view.hand is None and view.seat is None, "the table picture got a seat's view"
    return _png(repr((view, names, sorted(options.items()))))


def stand_in_hand(view: View, **options: Any) -> bytes:
    assert view.hand is not None
    return _png(repr((view.seat, view.hand, sorted(options.items()))))


@pytest.fixture
def pictures_on(monkeypatch: pytest.MonkeyPatch) -> Callable[..., bytes]:
    """The table renderer the bot uses: ``render``'s when it exists, else a stand-in."""
    table = pictures.table_renderer()
    if table is None or pictures.hand_renderer() is None:
        monkeypatch.setattr(pictures, "table_renderer", lambda: stand_in_table)
        monkeypatch.setattr(pictures, "hand_renderer", lambda: stand_in_hand)
        table = stand_in_table
    return table
