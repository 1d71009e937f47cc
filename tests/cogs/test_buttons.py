"""Every button kind is its own DynamicItem: its template reads exactly its ids, ids posted by
earlier versions keep working byte for byte, every number in an id is bounded, and strangers,
stale buttons and forged ids get a clear answer and change nothing.

Our decision: a custom id of ours that no kind reads is answered "This button is not valid any
more." (not left to time out on the player's screen).
"""

from __future__ import annotations

import re
from pathlib import Path

from hypothesis import given
from hypothesis import strategies as st

from cogs.domino.buttons import (
    ALL,
    ANY_ID,
    KINDS,
    AcceptButton,
    AchievementsButton,
    AddComputerButton,
    BackButton,
    CancelButton,
    ConfirmResignButton,
    DeclineButton,
    DominoButton,
    DrawButton,
    FillButton,
    HintButton,
    InvalidButton,
    JoinButton,
    KeepPlayingButton,
    LeaveButton,
    PassButton,
    PlayButton,
    RematchButton,
    ReplayPageButton,
    ResignButton,
    ReviewButton,
    StartButton,
    TilesButton,
)
from domino import Tile
from tests.cogs.helpers import answer, button, factory, game_message, new_table, open_hand, settle
from tests.cogs.test_table_layer import forge
from tests.fakediscord import FakeDiscord, running_bot

#: Ids as the version before the typed buttons wrote them (one template for every kind).
OLD_IDS: dict[type[DominoButton], list[str]] = {
    JoinButton: ["domino:join:7"],
    LeaveButton: ["domino:leave:7"],
    AddComputerButton: ["domino:ai:7:hard", "domino:ai:7:easy"],
    StartButton: ["domino:start:7"],
    FillButton: ["domino:fill:7"],
    CancelButton: ["domino:cancel:7"],
    AcceptButton: ["domino:accept:7:1002.1003", "domino:accept:7"],
    DeclineButton: ["domino:decline:7:1002", "domino:decline:7"],
    TilesButton: ["domino:tiles:7:12", "domino:tiles:7"],
    ResignButton: ["domino:resign:7"],
    ConfirmResignButton: ["domino:resignok:7"],
    KeepPlayingButton: ["domino:keepplaying:7"],
    RematchButton: ["domino:rematch:7"],
    ReviewButton: ["domino:review:7"],
    AchievementsButton: ["domino:achv:7"],
    ReplayPageButton: ["domino:replay:7:1:2:1001:1", "domino:replay:7:3:0:1001:0"],
    PlayButton: ["domino:play:7:3-5:left:2:12", "domino:play:7:0-0:any:1:0",
                 "domino:play:7:6-6:ask:3:41", "domino:play:7:5-5:up:1:9"],
    DrawButton: ["domino:draw:7:2:12"],
    PassButton: ["domino:pass:7:2:12"],
    BackButton: ["domino:back:7:2:12"],
    HintButton: ["domino:hint:7:2:12", "domino:hint:7"],
}
BIG = 10**19 - 1  # the largest table number an id may carry (19 digits)
FORGED = [
    f"domino:join:{BIG}0",  # 20 digits
    "domino:play:7:3-5:left:2:1234567890",  # a 10-digit seq
    "domino:play:7:10-5:left:2:1",
    "domino:play:7:3-5:middle:2:1",
    "domino:join:7:extra",
    "domino:ai:7:HARD",
    "domino:tiles:7:1:2",
    "domino:hint:7:2",
    "domino:nothing:7",
    "domino:join:-7",
    "domino:replay:7:1:2:1001:2",
    "domino:replay:7:1:2:1001",
    "domino:replay:7:1000:2:1001:1",
]


def kinds_reading(custom_id: str) -> list[type[DominoButton]]:
    return [k for k in ALL if k.__discord_ui_compiled_template__.fullmatch(custom_id)]


def test_every_kind_reads_its_old_ids_byte_for_byte() -> None:
    assert set(OLD_IDS) == set(KINDS)
    for kind, ids in OLD_IDS.items():
        for custom_id in ids:
            assert kinds_reading(custom_id) == [kind], custom_id
            match = kind.__discord_ui_compiled_template__.fullmatch(custom_id)
            assert match is not None
            item = kind.read(match)
            assert type(item) is kind and item.table_id == 7
            if custom_id not in ("domino:hint:7",):  # read as its default hand and seq
                assert item.custom_id == custom_id


def test_templates_are_distinct_and_every_id_is_ours() -> None:
    templates = [k.__discord_ui_compiled_template__.pattern for k in ALL]
    assert len(set(templates)) == len(templates)
    assert len({k.kind for k in KINDS}) == len(KINDS)
    for ids in OLD_IDS.values():
        assert all(ANY_ID.fullmatch(i) for i in ids)


def test_forged_ids_are_read_by_no_kind() -> None:
    for custom_id in FORGED:
        expected = [InvalidButton] if ANY_ID.fullmatch(custom_id) else []
        assert kinds_reading(custom_id) == expected, custom_id


def test_a_button_refuses_to_make_an_id_it_could_not_read() -> None:
    for make in (
        lambda: JoinButton(BIG * 10),
        lambda: DrawButton(7, 1, 10**9),
        lambda: AddComputerButton(7, "Hard"),
        lambda: PlayButton(7, Tile(3, 5), "middle", 1, 1),
    ):
        try:
            make()
        except ValueError:
            continue
        raise AssertionError("an unreadable id was made")


@given(
    table=st.integers(0, BIG),
    hand=st.integers(0, 10**9 - 1),
    seq=st.integers(0, 10**9 - 1),
    a=st.integers(0, 9),
    b=st.integers(0, 9),
    end=st.sampled_from(["any", "ask", "left", "right", "up", "down"]),
)
def test_ids_read_back_as_the_same_button(
    table: int, hand: int, seq: int, a: int, b: int, end: str
) -> None:
    made: list[DominoButton] = [
        PlayButton(table, Tile(a, b), end, hand, seq),
        DrawButton(table, hand, seq),
        PassButton(table, hand, seq),
        BackButton(table, hand, seq),
        HintButton(table, hand, seq),
        TilesButton(table, seq),
        JoinButton(table),
        AcceptButton(table, f"{hand}.{seq}"),
    ]
    for item in made:
        assert len(item.custom_id) <= 100
        (kind,) = kinds_reading(item.custom_id)
        assert kind is type(item)
        match = kind.__discord_ui_compiled_template__.fullmatch(item.custom_id)
        assert match is not None
        again = kind.read(match)
        assert again.custom_id == item.custom_id and again.table_id == table


# --------------------------------------------------------------- through the fake Discord

NOT_SEATED = "You are not seated at this table."
NOT_HOST = "Only the host of the table can do that."
INVALID = "This button is not valid any more."
CLOSED = "This table is closed."
STALE = "This was for an earlier state of the game; look at the latest message."


async def test_strangers_stale_old_and_forged_clicks(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    fake = fake_discord
    alice = fake.add_user(1001, "alice", "Alice")
    bob = fake.add_user(1002, "bob", "Bob")
    carol = fake.add_user(1003, "carol", "Carol")
    async with running_bot(fake, factory(fake, tmp_path / "db.sqlite3")) as bot:
        result, tid = await new_table(fake, bot, alice, variant="draw")
        lobby = result.message
        assert lobby is not None

        async def click_as(user: object, message: object, custom_id: str) -> str:
            """Put ``custom_id`` on the message (as a forged client could) and click it."""
            last = fake.message(message.id).buttons()[-1]["custom_id"]  # type: ignore[attr-defined]
            forge(fake, message, last, custom_id)  # type: ignore[arg-type]
            text = await answer(await fake.click(user, message, custom_id))  # type: ignore[arg-type]
            await settle(bot)
            return text

        # The lobby, a stranger: he may not leave, add computers, start or cancel.
        strangers = {
            f"domino:leave:{tid}": NOT_SEATED,
            f"domino:ai:{tid}:hard": NOT_HOST,
            f"domino:start:{tid}": NOT_HOST,
            f"domino:fill:{tid}": NOT_HOST,
            f"domino:cancel:{tid}": NOT_HOST,
            f"domino:accept:{tid}:1003": "This challenge is not for you.",
            f"domino:decline:{tid}:1003": "This challenge is not for you.",
        }
        answers = {cid: await click_as(carol, lobby, cid) for cid in strangers}
        assert answers == strangers
        info = await bot.svc.get(tid)
        assert info.status == "lobby" and [s.user_id for s in info.seats if s] == [alice.id]

        await fake.click(bob, lobby, button(lobby, "join"))
        await fake.wait_for(lambda: "<@1002>" in lobby.text())
        await fake.click(alice, lobby, button(lobby, "start"))
        game = await game_message(fake, bot, tid)
        await settle(bot)
        info = await bot.svc.get(tid)
        seq, hand = info.seq, info.public_view().hand_number  # type: ignore[union-attr]

        # The running match, a stranger: nothing of it is his.
        strangers = {
            f"domino:tiles:{tid}:{seq}": NOT_SEATED,
            f"domino:resign:{tid}": NOT_SEATED,
            f"domino:resignok:{tid}": NOT_SEATED,
            f"domino:play:{tid}:0-0:any:{hand}:{seq}": NOT_SEATED,
            f"domino:draw:{tid}:{hand}:{seq}": NOT_SEATED,
            f"domino:pass:{tid}:{hand}:{seq}": NOT_SEATED,
            f"domino:back:{tid}:{hand}:{seq}": NOT_SEATED,
            f"domino:hint:{tid}:{hand}:{seq}": "Hints are for practice tables only.",
            f"domino:rematch:{tid}": "The match is not over yet.",
        }
        answers = {cid: await click_as(carol, game, cid) for cid in strangers}
        assert answers == strangers
        assert (await bot.svc.get(tid)).seq == seq

        # Stale: the lobby's buttons once the match runs; a turn's buttons of an older state.
        mover = alice if info.turn_seat and info.turn_seat.user_id == alice.id else bob
        stale = {
            f"domino:join:{tid}": "The match has already started.",
            f"domino:leave:{tid}": "The match has started: resign instead.",
            f"domino:start:{tid}": "The match has already started.",
            f"domino:draw:{tid}:{hand}:{seq + 5}": STALE,
            f"domino:pass:{tid}:{hand}:{seq + 5}": STALE,
            f"domino:play:{tid}:0-0:ask:{hand}:{seq + 5}": STALE,
        }
        answers = {cid: await click_as(mover, game, cid) for cid in stale}
        assert answers == stale
        assert (await bot.svc.get(tid)).seq == seq

        # Forged: a table that cannot exist, and ids of ours that no kind reads.
        forged = {
            f"domino:join:{10**19 - 1}": f"There is no table {10**19 - 1}.",
            f"domino:play:{tid}:3-5:middle:{hand}:{seq}": INVALID,
            f"domino:draw:{tid}:{hand}:{seq}:9": INVALID,
            f"domino:tiles:{tid}:{10**12}": INVALID,
            f"domino:teleport:{tid}": INVALID,
        }
        answers = {cid: await click_as(mover, game, cid) for cid in forged}
        assert answers == forged
        assert (await bot.svc.get(tid)).seq == seq

        # An id as an older version wrote it (My tiles without the state) still opens the hand.
        old = await fake.click(mover, game, await_forge(fake, game, f"domino:tiles:{tid}"))
        (hand_message,) = await old.wait_for_followups(1)
        assert hand_message.ephemeral and "Your turn" in hand_message.text()
        # My tiles from a message that is not the table's game message (stale).
        mover_hand = await open_hand(fake, bot, mover, tid)
        assert mover_hand.message is not None
        elsewhere = await_forge(fake, mover_hand.message, f"domino:tiles:{tid}:{seq}")
        out_of_date = await fake.click(mover, mover_hand.message, elsewhere)
        assert await answer(out_of_date) == (
            "This message is out of date: use the latest game message."
        )
        assert (await bot.svc.get(tid)).seq == seq

        # The match is over (the mover resigns): its buttons are stale; the rematch is for
        # those who played.
        confirm = await fake.click(mover, game, await_forge(fake, game, f"domino:resign:{tid}"))
        (question,) = await confirm.wait_for_followups(1)
        done = await fake.click(mover, question, f"domino:resignok:{tid}")
        await done.wait_for_edits(1)
        await settle(bot)
        assert (await bot.svc.get(tid)).status == "finished"
        end = next(m for m in fake.public_messages() if f"domino:rematch:{tid}" in m.custom_ids())
        closed = {
            f"domino:resign:{tid}": CLOSED,
            f"domino:resignok:{tid}": CLOSED,
            f"domino:draw:{tid}:{hand}:{seq}": CLOSED,
            f"domino:hint:{tid}:{hand}:{seq}": CLOSED,
        }
        answers = {cid: await click_as(mover, end, cid) for cid in closed}
        assert answers == closed
        stranger = await fake.click(carol, end, await_forge(fake, end, f"domino:rematch:{tid}"))
        assert await answer(stranger) == "Only the players of this match can ask for a rematch."


def await_forge(fake: FakeDiscord, message: object, custom_id: str) -> str:
    last = fake.message(message.id).buttons()[-1]["custom_id"]  # type: ignore[attr-defined]
    forge(fake, message, last, custom_id)  # type: ignore[arg-type]
    return custom_id


def test_the_old_single_template_still_reads_every_new_id() -> None:
    """A rollback to the version before keeps reading the ids this one posts."""
    old = re.compile(
        r"domino:(?P<kind>[a-z]{1,12}):(?P<table>[0-9]{1,19})(?P<args>(?::[A-Za-z0-9.\-]{1,60}){0,6})"
    )
    for ids in OLD_IDS.values():
        assert all(old.fullmatch(i) for i in ids)


# ------------------------------------------------------------------ the records cog's buttons

RECORDS_OLD_IDS: dict[str, list[str]] = {
    "LeaderboardButton": [
        "records:lb:p:1001:0:all:rating:0",
        "records:lb:n:1001:1574470412950044672:two-player:wins:3",
        "records:lb:n:18446744073709551615:0:all-fives:rating:999",
    ],
    "PrivacyButton": ["records:privacy:1001:0:1", "records:privacy:1001:1574470412950044672:0"],
    "ForgetButton": ["records:forget:1001:yes:2", "records:forget:1001:no:0"],
}
RECORDS_FORGED = [
    "records:lb:p:1001:0:all:rating:1234567890",  # a 10-digit page
    "records:lb:x:1001:0:all:rating:0",
    f"records:lb:p:{10**20}:0:all:rating:0",  # 21 digits
    "records:privacy:1001:0:2",
    "records:forget:1001:maybe:0",
    "records:forget:1001:yes",
]


def test_records_buttons_read_their_old_ids_and_only_theirs() -> None:
    from cogs.records import buttons as records

    def readers(custom_id: str) -> list[str]:
        return [
            k.__name__
            for k in records.BUTTONS
            if k.__discord_ui_compiled_template__.fullmatch(custom_id)
        ]

    for name, ids in RECORDS_OLD_IDS.items():
        kind = getattr(records, name)
        for custom_id in ids:
            assert readers(custom_id) == [name], custom_id
            match = kind.__discord_ui_compiled_template__.fullmatch(custom_id)
            assert kind.read(match).custom_id == custom_id
    for custom_id in RECORDS_FORGED:
        assert readers(custom_id) == ["UnreadButton"], custom_id


#: Ids of ours that no template read before: too long, a number with too many digits, odd
#: characters. Our decision: they are answered like any other id no kind reads.
UNREAD_ANYWHERE = [
    f"domino:join:{BIG}0",
    f"domino:tiles:7:{'1' * 80}",
    "domino:play:7:3-5:left:2:12:1:2:3:4:5:6",  # more parts than any id has
    "domino:Join:7",
    "domino:join:-7",
    "domino:" + "x" * 93,
    "domino:",
]
RECORDS_UNREAD_ANYWHERE = [
    f"records:lb:p:1001:0:all:rating:{'9' * 60}",
    "records:LB:p:1001:0:all:rating:0",
    "records:forget:1001:yes:2:" + "x" * 70,
]


def test_every_id_of_ours_has_exactly_one_reader() -> None:
    from cogs.records import buttons as records

    for custom_id in UNREAD_ANYWHERE:
        assert kinds_reading(custom_id) == [InvalidButton], custom_id
    for custom_id in RECORDS_UNREAD_ANYWHERE:
        readers = [
            k for k in records.BUTTONS if k.__discord_ui_compiled_template__.fullmatch(custom_id)
        ]
        assert readers == [records.UnreadButton], custom_id


async def test_ids_no_template_read_are_answered_as_not_valid(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    """An over-long id or number gets the stale button's answer, not "interaction failed"."""
    fake = fake_discord
    alice = fake.add_user(1001, "alice", "Alice")
    async with running_bot(fake, factory(fake, tmp_path / "db.sqlite3")) as bot:
        result, tid = await new_table(fake, bot, alice, variant="draw")
        lobby = result.message
        assert lobby is not None
        for custom_id in UNREAD_ANYWHERE:
            click = await fake.click(alice, lobby, await_forge(fake, lobby, custom_id))
            assert await answer(click) == INVALID, custom_id
            await settle(bot)
        info = await bot.svc.get(tid)
        assert info.status == "lobby" and [s.user_id for s in info.seats if s] == [alice.id]

        board = await fake.slash(alice, fake.channel_id, "domino privacy", {})
        assert board.message is not None and board.message.custom_ids()
        for custom_id in RECORDS_UNREAD_ANYWHERE:
            forged = await_forge(fake, board.message, custom_id)
            click = await fake.click(alice, board.message, forged)
            assert await answer(click) == INVALID, custom_id
