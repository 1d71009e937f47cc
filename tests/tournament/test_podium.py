"""The podium: final places stored per event, the tournament-podium achievement (awarded when
the event ends, back-filled from the stored places, forgotten with the person) and the server's
tournament winners' role."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from bot.achievements.catalogue import PODIUM
from bot.achievements.service import Achievements
from bot.errors import ServiceError
from bot.privacy.forget import forget_person
from bot.records.service import Records
from bot.store import Store
from bot.tables.service import TableService
from bot.tournaments.service import TournamentService
from tests.bot.helpers import FakeClock
from tests.cogs.helpers import factory
from tests.fakediscord import FakeDiscord, running_bot
from tests.fakediscord.models import DEFAULT_BOT_PERMISSIONS
from tests.tournament.helpers import play_round
from tests.tournament.test_discord import (
    button_of,
    click_in,
    play_out,
    step,
    titled,
    tournament_cog,
    with_button,
)
from tests.tournament.test_discord_people_knockout import create, register_and_start

pytest_plugins = ["tests.fakediscord.plugin"]

GUILD, CHANNEL, HOST = 10, 20, 1
MANAGE_GUILD, MANAGE_ROLES = 1 << 5, 1 << 28


async def podium_rows(store: Store) -> list[tuple[int, int, int]]:
    rows = await store.db.fetchall(
        "SELECT player_id, table_id, guild_id FROM achievements WHERE code = ?"
        " ORDER BY player_id",
        (PODIUM,),
    )
    return [(int(r[0]), int(r[1]), int(r[2])) for r in rows]


async def test_final_places_and_the_podium_achievement(
    events: TournamentService, tables: TableService, clock: FakeClock, store: Store
) -> None:
    """A six-person individual knockout ends: every person's place is stored in the ending
    transaction (read back through ``final_places``), the podium's people (places 1 to 3) earn
    the achievement under the event (its id made negative), the back-fill from the stored
    places writes the same rows (twice: the second writes nothing), and forget-me deletes the
    person's achievement and leaves his place under his alias."""
    event = await events.create(
        guild_id=GUILD, channel_id=CHANNEL, host_id=HOST, name="Cup",
        checkin=True,
        variant="partners",
        format="individual", system="knockout", hands=1,
    )
    for u in range(100, 106):
        await events.register(event.id, u, f"P{u}")
    assert await events.repo.final_places(event.id) == []
    await events.start(event.id, HOST)
    await play_round(events, tables, clock, event.id)
    tree = (await events.state(event.id)).bracket()
    assert tree is not None
    through = {e for m in tree.rounds[0] for e in m.advancing}
    out = {u for u in range(100, 106) if (await events.repo.entry_of(event.id, u)).entry
           not in through}  # type: ignore[union-attr]
    await play_round(events, tables, clock, event.id, skip=out)
    state = await events.state(event.id)
    assert state.event.status == "finished"
    stored = await events.repo.final_places(event.id)
    users = {e.entry: e.user_id for e in state.entries}
    assert [(p.place, p.entry) for p in stored] == sorted(
        (place, e) for place, e in state.places()
    )
    assert {p.user_id for p in stored} == set(range(100, 106))
    assert all(p.guild_id == GUILD for p in stored)
    podium = sorted(users[e] for place, e in state.places() if place <= 3)
    assert len(podium) == 4  # two champions, the final's two losers sharing third
    assert await podium_rows(store) == [(u, -event.id, GUILD) for u in podium]
    # The back-fill from the stored places: the same rows, idempotent.
    await store.db.execute("DELETE FROM achievements WHERE code = ?", (PODIUM,))
    await Achievements(store).backfill()
    assert await podium_rows(store) == [(u, -event.id, GUILD) for u in podium]
    assert (await Achievements(store).backfill()).rows == 0
    # Forget-me: the achievement goes, the place stays under the alias, and a back-fill
    # gives the alias nothing.
    gone = podium[0]
    alias = await forget_person(Records(store, clock=clock), gone)
    assert all(u != gone for u, _, _ in await podium_rows(store))
    after = await events.repo.final_places(event.id)
    assert gone not in {p.user_id for p in after} and alias in {p.user_id for p in after}
    await Achievements(store).backfill()
    assert [u for u, _, _ in await podium_rows(store)] == podium[1:]


async def test_a_cancelled_event_stores_no_places(
    events: TournamentService, store: Store
) -> None:
    event = await events.create(
        guild_id=GUILD, channel_id=CHANNEL, host_id=HOST, name="Cup", checkin=True, variant="draw",
        format="single",
    )
    await events.register(event.id, 100, "P100")
    await events.cancel(event.id, HOST)
    assert await events.repo.final_places(event.id) == []
    assert await podium_rows(store) == []


async def duel(
    fake: FakeDiscord, bot: Any, clock: FakeClock, name: str, people: list[Any],
    winner_role: int | None = None, host: Any = None, meanwhile: Callable[[], None] = lambda: None,
) -> Any:
    """A two-person knockout of draw played to its podium (created by ``host``, the owner by
    default; ``meanwhile`` called as its match begins); returns its final state."""
    options: dict[str, Any] = {
        "name": name,
        "checkin": True,
        "variant": "draw", "format": "single", "system": "knockout", "hands": 1,
    }
    if winner_role is not None:
        options["winner_role"] = winner_role
    if host is None:
        await create(fake, bot, clock, options)
    else:
        made = await fake.slash(host, fake.channel_id, "domino tournament create", options)
        assert "open for registration" in made.text(), made.text()
        await step(bot, clock)
    event_id = await register_and_start(fake, bot, clock, people)
    events = tournament_cog(bot).events
    (post,) = [
        m for m in with_button(fake, "tournament:checkin:") if f"Round 1 of {name}:" in m.text()
    ]
    for user in people:
        click = await fake.click(user, post, button_of(post, "tournament:checkin:"))
        await click.wait_for_followups(1)
        assert "checked in" in click.followups[0].text()
    await step(bot, clock, 600)
    await click_in(fake, bot, 1, set())
    meanwhile()
    await play_out(fake, bot, clock, event_id, 1)
    await step(bot, clock)
    state = await events.state(event_id)
    assert state.event.status == "finished"
    return state


async def test_the_tournament_winners_role_moves_to_each_events_winner(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    """``/domino server-settings tournament_winner_role:``: refused to a member without Manage
    Server, and (nothing changed) while the bot lacks Manage Roles or the role is above its
    own; once set, each event's champion gets it at the podium and the former winner loses it,
    said once on the event's channel; the podium names the podium achievement; when the bot
    loses Manage Roles the next podium says so, and so do the settings."""
    fake = fake_discord
    boss = fake.owner
    people = [fake.add_user(9000 + i, f"d{i}", f"Duel {i}") for i in range(4)]
    member = fake.add_user(9100, "member", "Member")
    winners_role = fake.add_role("Winners", position=5)
    high = fake.add_role("Staff", position=60)
    bot_role = fake.guild.personal_roles[fake.bot_user.id]
    clock = FakeClock()
    settings = "domino server-settings"
    option = "tournament_winner_role"
    async with running_bot(fake, factory(fake, tmp_path / "db.sqlite3", clock=clock)) as bot:
        refused = await fake.slash(boss, fake.channel_id, settings, {option: winners_role.id})
        assert refused.text() == (
            f"I need the Manage Roles permission to give <@&{winners_role.id}>."
            " Nothing was changed."
        )
        fake.set_member_permissions(fake.bot_user.id, DEFAULT_BOT_PERMISSIONS | (1 << 28))
        fake.set_role_position(bot_role, 50)
        refused = await fake.slash(boss, fake.channel_id, settings, {option: high.id})
        assert "is not below my own highest role" in refused.text()
        refused = await fake.slash(member, fake.channel_id, settings, {option: winners_role.id})
        assert "manage the server" in refused.text()
        shown = await fake.slash(boss, fake.channel_id, settings, {})
        assert "Tournament winners' role\nno role" in shown.text()
        saved = await fake.slash(boss, fake.channel_id, settings, {option: winners_role.id})
        assert f"Tournament winners' role\n<@&{winners_role.id}>" in saved.text()
        first = await duel(fake, bot, clock, "First", people[:2])
        (champion,) = [e for p, e in first.places() if p == 1]
        one = first.entry(champion).user_id
        await fake.wait_for(lambda: winners_role.id in fake.member_roles(one))
        said = [m for m in fake.public_messages() if "The winners of First get" in m.text()]
        assert len(said) == 1 and f"<@&{winners_role.id}>" in said[0].text()
        (podium,) = titled(fake, "First: the podium")
        assert f"🏅 <@{one}> earned **Tournament podium**" in podium.text()
        second = await duel(fake, bot, clock, "Second", people[2:])
        (champion,) = [e for p, e in second.places() if p == 1]
        two = second.entry(champion).user_id
        await fake.wait_for(lambda: winners_role.id in fake.member_roles(two))
        assert winners_role.id not in fake.member_roles(one)
        fake.set_member_permissions(fake.bot_user.id, DEFAULT_BOT_PERMISSIONS)
        await duel(fake, bot, clock, "Third", people[:2])
        said = [m for m in fake.public_messages() if "I need the Manage Roles permission" in
                m.text() and not m.ephemeral]
        assert len(said) == 1
        assert winners_role.id in fake.member_roles(two)  # nothing could change
        shown = await fake.slash(boss, fake.channel_id, settings, {})
        assert "⚠️ Last time: I need the Manage Roles permission" in shown.text()
        # An older event published again (an event of before the role, a late correction)
        # crowns nobody: the role stays with the winners of the event that finished last.
        fake.set_member_permissions(fake.bot_user.id, DEFAULT_BOT_PERMISSIONS | (1 << 28))
        await bot.store.db.execute(
            "DELETE FROM tournament_posts WHERE tournament_id = ? AND key = 'crown'",
            (first.id,),
        )
        tournament_cog(bot).wake(first.id)
        await step(bot, clock)
        assert len([m for m in fake.public_messages() if "The winners of First" in m.text()]) == 1
        assert winners_role.id in fake.member_roles(two)
    async with running_bot(fake, factory(fake, tmp_path / "db.sqlite3", clock=clock)) as bot:
        await step(bot, clock)  # a restart says nothing again
    assert len([m for m in fake.public_messages() if "The winners of" in m.text()]) == 2


def leave(fake: FakeDiscord, people: list[Any]) -> None:
    """They leave the server (Discord then answers "Unknown Member" about them)."""
    for user in people:
        fake.guild.members.pop(user.id)


async def test_an_events_winner_role_is_chosen_only_by_who_may_give_it(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    """``/domino tournament create winner_role:``: an organiser without Manage Roles may not
    choose a role, nor anyone a role with a dangerous permission (nothing is created). The role
    is checked again at the podium: once its chooser lost Manage Roles it is not given, said
    once (a restart says nothing again); and when no winner could receive it (he left), the
    post does not say the winners get it."""
    fake = fake_discord
    fake.set_member_permissions(fake.bot_user.id, DEFAULT_BOT_PERMISSIONS | MANAGE_ROLES)
    fake.set_role_position(fake.guild.personal_roles[fake.bot_user.id], 50)
    people = [fake.add_user(9000 + i, f"d{i}", f"Duel {i}") for i in range(4)]
    organiser = fake.add_user(9100, "organiser", "Organiser")
    mod = fake.add_user(9101, "mod", "Mod", permissions=MANAGE_GUILD | MANAGE_ROLES)
    fake.set_role_position(fake.guild.personal_roles[mod.id], 30)
    organisers = fake.add_role("Organisers", position=2)
    fake.guild.members[organiser.id].role_ids.append(organisers.id)
    prize = fake.add_role("Prize", position=5)
    admins = fake.add_role("Admins", position=6, permissions=8)  # Administrator
    clock = FakeClock()
    create_ = "domino tournament create"
    options = {"name": "Cup",
    "checkin": True, "variant": "draw", "format": "single", "system": "knockout"}
    gone = "was chosen by someone who may no longer choose it (or who left): I did not give it."
    nobody = f"Nobody received <@&{prize.id}>."
    async with running_bot(fake, factory(fake, tmp_path / "db.sqlite3", clock=clock)) as bot:
        set_role = await fake.slash(fake.owner, fake.channel_id, "domino server-settings",
                                    {"tournament_role": organisers.id})
        assert f"<@&{organisers.id}>" in set_role.text()
        refused = await fake.slash(organiser, fake.channel_id, create_,
                                   {**options, "winner_role": admins.id})
        assert refused.text() == (
            f"<@&{admins.id}> carries a permission too powerful for a prize (such as"
            " Administrator, Manage Server, Manage Roles or Ban Members): I give no such role."
        )
        refused = await fake.slash(organiser, fake.channel_id, create_,
                                   {**options, "winner_role": prize.id})
        assert refused.text() == (
            "Only the server's owner, or a member with Manage Roles whose highest role is above"
            f" <@&{prize.id}>, may choose it."
        )
        refused = await fake.slash(mod, fake.channel_id, create_,
                                   {**options, "winner_role": admins.id})
        assert "too powerful for a prize" in refused.text()
        with pytest.raises(ServiceError):
            await tournament_cog(bot).events.find(fake.guild_id, fake.channel_id)
        # The mod chooses the prize, then loses Manage Roles before the podium.
        first = await duel(
            fake, bot, clock, "First", people[:2], winner_role=prize.id, host=mod,
            meanwhile=lambda: fake.set_member_permissions(mod.id, MANAGE_GUILD),
        )
        await fake.wait_for(lambda: any(gone in m.text() for m in fake.public_messages()))
        assert not any(prize.id in fake.member_roles(u.id) for u in people[:2])
        assert first.event.status == "finished"
        # The owner's event: its players left the server before the podium.
        await duel(
            fake, bot, clock, "Second", people[2:], winner_role=prize.id,
            meanwhile=lambda: leave(fake, people[2:]),
        )
        await fake.wait_for(lambda: any(m.text() == nobody for m in fake.public_messages()))
    async with running_bot(fake, factory(fake, tmp_path / "db.sqlite3", clock=clock)) as bot:
        await step(bot, clock)  # a restart says nothing again
    assert len([m for m in fake.public_messages() if gone in m.text()]) == 1
    assert len([m for m in fake.public_messages() if m.text() == nobody]) == 1
    assert not [m for m in fake.public_messages() if "winners get" in m.text()]
