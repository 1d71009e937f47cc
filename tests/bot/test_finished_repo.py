"""Finished matches a person may replay: which ones, and what is known of each seat."""

from __future__ import annotations

from typing import Any

from bot.records.service import Records
from bot.store import Store
from bot.store.table_extras import FinishedMatch, FinishedRepo, Readable
from bot.tables.service import TableService
from tests.bot.helpers import FakeClock

ANA, BEA, EVE = 101, 102, 103
HERE, THERE = 7001, 7002
#: A member of HERE who can view its channel 900, where the matches are played.
AT_HERE = Readable(HERE, frozenset({900}))


async def resigned(service: TableService, guild_id: int) -> int:
    """A three-player match on ``guild_id``: Ana, Bea and a computer; Ana resigns."""
    t = await service.create_table(
        host_id=ANA, host_name="Ana *nick*", variant="three", guild_id=guild_id, channel_id=900
    )
    await service.join(t.id, BEA, "Bea")
    await service.start(t.id, ANA, fill_with_computers=True)
    await service.resign(t.id, ANA)
    return t.id


async def test_visible_matches_carry_their_server_and_seats(
    service: TableService, store: Store
) -> None:
    here = await resigned(service, HERE)
    there = await resigned(service, THERE)
    repo = FinishedRepo(store.db)

    # a member of this server sees its match only
    (match,) = await repo.visible(EVE, AT_HERE, veil=None)
    assert (match.table_id, match.guild_id, match.variant) == (here, HERE, "three")
    assert match.finished_at > 0
    seats = [(s.table_id, s.seat, s.user_id, s.name, s.kind) for s in match.seats]
    assert seats == [
        (here, 0, ANA, "Ana *nick*", "human"),
        (here, 1, BEA, "Bea", "human"),
        (here, 2, None, "Computer 3", "computer"),
    ]
    # A player sees his matches of every server, newest first; one table on request.
    seen = await repo.visible(BEA, AT_HERE, veil=None)
    assert [(m.table_id, m.guild_id) for m in seen] == [
        (there, THERE),
        (here, HERE),
    ]
    (one,) = await repo.visible(BEA, AT_HERE, table_id=there, veil=None)
    assert one.guild_id == THERE and [s.user_id for s in one.seats] == [ANA, BEA, None]
    assert await repo.visible(EVE, AT_HERE, table_id=there, veil=None) == []


async def test_someone_elses_matches_only_where_the_member_can_look(
    service: TableService, store: Store, clock: FakeClock
) -> None:
    """Replays and another's history: a match of the server is shown where the member can view
    its channel (a thread's: its channel's; a private thread: where he sees them all)."""
    records = Records(store, clock=clock)
    service.add_observer(records)

    async def played(channel: int, **place: Any) -> int:
        t = await service.create_table(
            host_id=ANA,
            host_name="Ana",
            variant="draw",
            guild_id=HERE,
            channel_id=channel,
            **place,
        )
        await service.join(t.id, BEA, "Bea")
        await service.start(t.id, ANA)
        await service.resign(t.id, BEA)
        await service.idle()
        return t.id

    general = await played(900)
    staff = await played(901)
    staff_thread = await played(950, parent_id=901)
    private = await played(960, parent_id=900, private_thread=True)
    old_thread = await played(970)  # stored before threads' channels were: its thread id only
    repo = FinishedRepo(store.db)

    async def shown(readable: Readable) -> set[int]:
        replays = {m.table_id for m in await repo.visible(EVE, readable, limit=100, veil=None)}
        history = {i.table_id for i in await records.history(ANA, readable=readable, limit=50)}
        assert replays == history
        return replays

    assert await shown(AT_HERE) == {general}
    assert await shown(Readable(HERE, frozenset({900, 901}))) == {general, staff, staff_thread}
    assert await shown(Readable(HERE, frozenset({900}), frozenset({900}))) == {general, private}
    assert await shown(Readable(HERE, frozenset({970}))) == {old_thread}
    assert await shown(Readable(HERE, frozenset({960}))) == {private}  # asked in the thread
    assert await shown(Readable(HERE, frozenset())) == set()
    assert await shown(Readable(THERE, frozenset({900, 901}))) == set()  # another server
    # His own matches, wherever they were played.
    mine = {
        m.table_id
        for m in await repo.visible(BEA, Readable(HERE, frozenset()), limit=100, veil=None)
    }
    assert mine == {general, staff, staff_thread, private, old_thread}


def test_where_a_finished_match_may_be_posted_for_everyone() -> None:
    """Our decision: ``share`` posts a match only where everyone reading could look at the
    place it was played: anywhere if @everyone could; else its channel, that channel's threads
    and, for a public thread, the thread itself; a private thread's match only inside it."""
    general, staff, talk, secret = 10, 20, 21, 11

    def played(channel: int, parent: int | None = None, **flags: bool) -> FinishedMatch:
        return FinishedMatch(1, 5, "draw", 0.0, (), channel, parent, **flags)

    in_staff, in_talk = played(staff), played(talk, staff)
    in_secret = played(secret, general, private_thread=True)
    assert in_staff.may_share_in(staff) and in_staff.may_share_in(talk, staff)
    assert in_talk.may_share_in(staff) and in_talk.may_share_in(talk, staff)
    assert not in_staff.may_share_in(general) and not in_talk.may_share_in(general)
    assert in_secret.may_share_in(secret, general)
    assert not in_secret.may_share_in(general) and not in_secret.may_share_in(99, general)
    assert played(staff, public_place=True).may_share_in(general)
    assert not in_staff.may_share_in(None)
