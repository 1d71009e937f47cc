"""The web player page lists a person's achievements with their badges; each badge is a
picture of its own (on each backend)."""

from __future__ import annotations

from aiohttp.test_utils import TestClient

from bot.achievements.catalogue import BY_CODE
from bot.achievements.service import Achievements
from bot.store import Store
from tests.web.seed import ANA, BEA, GUILD, Seeded
from tests.web.test_pages import client, seeded, text

__all__ = ["client", "seeded"]  # the fixtures of the pages' tests


async def test_the_players_page_shows_his_achievements_and_badges(
    client: TestClient, seeded: tuple[Store, Seeded]
) -> None:
    store, _ = seeded
    boards = {p: (await Achievements(store).board(p)).earned for p in (ANA, BEA)}
    person, earned = next((p, e) for p, e in boards.items() if e)  # the seeded winner's
    page = await text(client, f"/s/{GUILD}/p/{person}")
    assert '<h2 id="achievements-title">Achievements</h2>' in page
    for e in earned:
        assert f"<strong>{BY_CODE[e.code].name}</strong>" in page
        assert f'src="/badges/{e.code}.png"' in page
    loser = next(p for p in (ANA, BEA) if p != person)
    if not boards[loser]:
        assert "achievements-title" not in await text(client, f"/s/{GUILD}/p/{loser}")
    es = await text(client, f"/s/{GUILD}/p/{person}?lang=es")
    assert "Logros" in es
    badge = await client.get(f"/badges/{earned[0].code}.png")
    assert badge.status == 200 and badge.content_type == "image/png"
    assert (await badge.read()).startswith(b"\x89PNG")
    await text(client, "/badges/nothing.png", 404)
