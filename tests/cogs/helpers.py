"""Helpers for the end-to-end tests of the dominoes cog against the fake Discord."""

from __future__ import annotations

import dataclasses
import itertools
import re
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from bot.client import DominoBot
from bot.limits import Limits
from bot.settings import Settings
from bot.tables.service import TableInfo, TableService
from bot.workers import pictures
from cogs.domino.buttons import KINDS
from cogs.domino.commands import DominoCog
from domino import Match, Resign, Ruleset, Tile, decode_action
from render.moves import last_moves
from tests.fakediscord import FakeDiscord, InteractionResult, StoredMessage

COMPUTER_DELAY = 0.0
HAND_PAUSE = 0.01
# How long a turn's refresh may take to arrive: seconds when quiet, far more on a loaded machine.
LOADED_WAIT = 60.0


class FakeClock:
    """A clock the test moves by hand (starts at the real time)."""

    def __init__(self) -> None:
        self.now = time.time()

    def __call__(self) -> float:
        return self.now

    def advance(self, seconds: float) -> float:
        self.now += seconds
        return self.now


class TestBot(DominoBot):
    """The real bot, with quick computers, a tiny pause between hands and a fixed shuffle."""

    __test__ = False

    def __init__(
        self,
        settings: Settings,
        *,
        seed: int = 11,
        clock: Callable[[], float] | None = None,
        computer_delay: float = COMPUTER_DELAY,
        hand_pause: float = HAND_PAUSE,
    ) -> None:
        seeds = itertools.count(seed)
        options: dict[str, Any] = {
            "seed_source": lambda: next(seeds),
            "computer_delay": computer_delay,
            "computer_pace": None,
            "hand_pause": hand_pause,
            "ai_level": "easy",
        }
        if clock is not None:
            options["clock"] = clock
        super().__init__(settings, service_options=options)

    @property
    def svc(self) -> TableService:
        assert self.service is not None
        return self.service

    @property
    def cog(self) -> DominoCog:
        # Not isinstance: discord.py re-imports the extension's modules for every new bot.
        cog = self.get_cog("Domino")
        assert cog is not None and type(cog).__name__ == "DominoCog", self.cogs
        return cog  # type: ignore[return-value]


def settings_for(fake: FakeDiscord, db: Path, **limits: Any) -> Settings:
    """Settings for a test bot: no cooldown between tables (tests open them quickly) unless
    ``limits`` say otherwise."""
    return Settings(
        discord_token=fake.token,
        database_path=db,
        dev_guild_id=fake.guild_id,
        log_level="INFO",
        limits=Limits(**{"cooldown": 0.0, **limits}),
        ai_processes=0,  # computers think in threads: quicker to start for a test
    )


def factory(fake: FakeDiscord, db: Path, **kwargs: Any) -> Callable[[], TestBot]:
    return lambda: TestBot(settings_for(fake, db), **kwargs)


def parse(custom_id: str) -> tuple[str, int, tuple[str, ...]] | None:
    """``(kind, table id, the other parts)`` of a custom id one of the cog's buttons reads."""
    for kind in KINDS:
        if kind.__discord_ui_compiled_template__.fullmatch(custom_id):
            _, name, table, *args = custom_id.split(":")
            return name, int(table), tuple(args)
    return None


def button(message: StoredMessage, kind: str) -> str:
    """The custom id of the first ``domino:<kind>:`` component of ``message``."""
    for cid in message.custom_ids():
        parsed = parse(cid)
        if parsed and parsed[0] == kind:
            return cid
    raise LookupError(f"no {kind!r} button on message {message.id}: {message.custom_ids()}")


def table_id_of(message: StoredMessage) -> int:
    for cid in message.custom_ids():
        parsed = parse(cid)
        if parsed:
            return parsed[1]
    raise LookupError(f"no domino button on message {message.id}")


def enabled(message: StoredMessage) -> list[str]:
    """Custom ids of the enabled buttons of ``message``."""
    return [b["custom_id"] for b in message.buttons() if not b.get("disabled")]


async def settle(bot: TestBot) -> None:
    """Wait until the bot handles no interaction and has no Discord work queued."""
    await bot.cog.idle()


async def table(bot: TestBot, table_id: int) -> TableInfo:
    return await bot.svc.get(table_id)


async def new_table(
    fake: FakeDiscord, bot: TestBot, host: Any, **options: Any
) -> tuple[InteractionResult, int]:
    """``/domino new`` by ``host``; returns the result and the table id."""
    result = await fake.slash(host, fake.channel_id, "domino new", options)
    assert result.message is not None, result.text()
    tid = table_id_of(result.message)
    await fake.wait_for(lambda: bot.svc.open_tables() and _lobby_set(bot, tid))
    return result, tid


def _lobby_set(bot: TestBot, tid: int) -> bool:
    return any(t.id == tid and t.table.lobby_message_id for t in bot.svc.open_tables())


async def game_message(fake: FakeDiscord, bot: TestBot, table_id: int) -> StoredMessage:
    """The current public game message of the table (waits until it is posted)."""

    def current() -> int | None:
        for t in bot.svc.open_tables():
            if t.id == table_id:
                return t.table.message_id
        return None

    mid = await fake.wait_for(current, what=f"the game message of table {table_id}")
    return fake.message(mid)


async def start_with_computers(
    fake: FakeDiscord, bot: TestBot, host: Any, lobby: StoredMessage
) -> StoredMessage:
    """Host presses Start, then "Start with computer players"; returns the game message."""
    tid = table_id_of(lobby)
    start = await fake.click(host, lobby, button(lobby, "start"))
    (confirm,) = await start.wait_for_followups(1)
    assert confirm.ephemeral
    fill = await fake.click(host, confirm, button(confirm, "fill"))
    await fill.wait_for_edits(1)
    return await game_message(fake, bot, tid)


@dataclasses.dataclass
class OpenedHand:
    """A My tiles click and the private hand message it sent: the click is answered as an
    update of the public game message (type 6, so ``click.message`` is that public message),
    the hand is its first followup, ephemeral."""

    click: InteractionResult

    @property
    def message(self) -> StoredMessage | None:
        """The live hand message (None if the click sent nothing yet)."""
        if not self.click.followups:
            return None
        return self.click.fake.message(self.click.followups[0].id)

    def text(self) -> str:
        return "" if self.message is None else self.message.text()

    @property
    def ephemeral(self) -> bool:
        return self.message is not None and self.message.ephemeral

    def __getattr__(self, name: str) -> Any:
        return getattr(self.click, name)


async def open_hand(
    fake: FakeDiscord, bot: TestBot, user: Any, table_id: int, *, locale: str = "en-US"
) -> OpenedHand:
    """``user`` presses My tiles on the current game message; returns the click and the
    private hand message it sent."""
    await settle(bot)
    game = await game_message(fake, bot, table_id)
    result = await fake.click(user, game, button(game, "tiles"), locale=locale)
    await result.wait_for_followups(1)
    return OpenedHand(result)


SAID_RESULT = re.compile(r"^\*\*Hand (\d+): .*\n(?:.*\n)*?Pips left: ", re.MULTILINE)


def said_results(messages: Sequence[StoredMessage]) -> list[int]:
    """The hand numbers whose result ``messages`` say, in order: a hand's game message in its
    final state (the result under its title), or a result post for a hand that had no game
    message to show it."""
    return [int(found.group(1)) for m in messages for found in SAID_RESULT.finditer(m.text())]


def _action_on(message: StoredMessage) -> str | None:
    try:
        return hand_choice(message)
    except LookupError:
        return None


def hand_choice(message: StoredMessage) -> str:
    """The first enabled action button of a hand message (a tile, Left, Draw or Pass)."""
    for cid in enabled(message):
        kind = parse(cid)
        if kind and kind[0] in ("play", "draw", "pass"):
            return cid
    raise LookupError(f"nothing to press on {message.id}: {message.custom_ids()}")


# ------------------------------------------------------------------------- playing turns

TILE_LABEL = re.compile(r"(?<![\d-])(\d)-(\d)(?![\d-])")


def human_to_move(bot: TestBot, table_id: int) -> int | str | None:
    """The user id to move at the table, "over" once it left memory (finished), else None."""
    for info in bot.svc.open_tables():
        if info.id == table_id:
            seat = info.turn_seat
            if info.status == "lobby":
                return None
            if info.status != "running":
                return "over"
            if seat is not None and seat.kind == "human" and seat.user_id is not None:
                return seat.user_id
            return None
    return "over"


async def play_turn(
    fake: FakeDiscord,
    bot: TestBot,
    table_id: int,
    user: Any,
    hands: dict[int, OpenedHand],
    *,
    locale: str = "en-US",
) -> InteractionResult:
    """``user`` plays one turn through his private hand message (opening it if needed), his
    Discord in ``locale``."""
    await settle(bot)
    info = await bot.svc.get(table_id)
    hand = hands.get(user.id)
    if hand is None:
        hand = hands[user.id] = await open_hand(fake, bot, user, table_id, locale=locale)
    message = hand.message
    assert message is not None and message.ephemeral
    # (on a loaded machine the refresh that offers his turn may still be on its way)
    choice = await fake.wait_for(
        lambda: _action_on(message), timeout=LOADED_WAIT, what=f"an action on {user.name}'s hand"
    )
    parsed = parse(choice)
    assert parsed is not None and parsed[2][-1] == str(info.seq), (
        f"hand message of {user.name} shows seq {parsed}, table is at {info.seq}"
    )
    click = await fake.click(user, message, choice, locale=locale)
    assert click.type == 6, click
    if parsed[0] == "play" and parsed[2][1] == "ask":
        await click.wait_for_edits(1)
        try:
            end = button_with(message, "play", "left")
        except LookupError:  # All Fives: a tile fitting the spinner's arms only
            end = hand_choice(message)
        click = await fake.click(user, message, end, locale=locale)
    await click.wait_for_edits(1)
    assert not click.followups, [m.content for m in click.followups]
    return click


def button_with(message: StoredMessage, kind: str, arg: str) -> str:
    for cid in enabled(message):
        parsed = parse(cid)
        if parsed and parsed[0] == kind and arg in parsed[2]:
            return cid
    raise LookupError(f"no {kind}/{arg} button on {message.id}: {message.custom_ids()}")


async def play_until_over(
    fake: FakeDiscord,
    bot: TestBot,
    table_id: int,
    users: Sequence[Any],
    *,
    max_turns: int = 400,
    stop: Callable[[int], bool] | None = None,
    hands: dict[int, OpenedHand] | None = None,
    locale: str = "en-US",
) -> int:
    """Humans play (first enabled button) until the match is over; returns turns played.

    ``stop(turns)`` may end the loop early (returns before that turn is played).
    """
    by_id = {u.id: u for u in users}
    hands = {} if hands is None else hands
    for turns in range(max_turns):
        who = await fake.wait_for(
            lambda: human_to_move(bot, table_id),
            timeout=LOADED_WAIT,
            what="a human's turn or the end",
        )
        if who == "over":
            return turns
        if stop is not None and stop(turns):
            return turns
        await play_turn(fake, bot, table_id, by_id[int(who)], hands, locale=locale)
    raise AssertionError("the match did not end")


# --------------------------------------------------------------------- hidden tile check


async def match_states(bot: TestBot, table_id: int) -> tuple[list[Match], list[str]]:
    """Every state of the table's match (index = seq) rebuilt from the store, and the names."""
    store = bot.svc.store
    match_row = await store.matches.get(table_id)
    assert match_row is not None
    ruleset = Ruleset.from_dict(match_row.ruleset)
    state = Match.replay(ruleset, match_row.seed, [], match_row.deal)
    states = [state]
    for row in await store.actions.list(table_id):
        action = decode_action(row.action)
        state = state.apply(action) if isinstance(action, Resign) else state.apply(action, row.seat)
        states.append(state)
    info = await bot.svc.get(table_id)
    return states, info.names


def _versions(message: StoredMessage) -> list[StoredMessage]:
    return [*message.history, message]


def shown_seq(version: StoredMessage) -> int | None:
    """The state a game message version shows, from its My tiles button: the button's custom
    id carries the table's action count (a marker no player reads)."""
    for cid in version.custom_ids():
        parsed = parse(cid)
        if parsed and parsed[0] == "tiles" and parsed[2]:
            return int(parsed[2][0])
    return None


def is_game_message(message: StoredMessage) -> bool:
    """Whether ``message`` is (or was) a table's game message: it had a My tiles button."""
    return any(shown_seq(v) is not None for v in _versions(message))


async def assert_no_hidden_tiles(fake: FakeDiscord, bot: TestBot, table_id: int) -> int:
    """Check every version of every public message of the table; returns versions checked.

    A game message version is known by its state: the action count its My tiles button
    carries, or, for a version without buttons (the final position of a hand or of the
    match), the hand end whose picture it shows. Its text may not name a tile held in any
    hand at that state, and its picture must be exactly the table picture of that state's
    public view. Other public messages name no tile at all, and their pictures are copies of
    checked game pictures.
    """
    states, names = await match_states(bot, table_id)
    history = await bot.svc.history(table_id)
    renderer = pictures.table_renderer()
    rendered: dict[int, bytes] = {}

    def picture(seq: int, running: bool = False) -> bytes:
        """The picture of the state after ``seq`` actions (``running``: on the running hand's
        message, which shows that hand, not the one before, until its first move)."""
        key = -seq - 1 if running else seq
        if key not in rendered:
            assert renderer is not None
            view = states[seq].public_view()
            last = last_moves(view, history.timed_out(seq, view.hand_number))
            if running and view.outcome is None:
                view = dataclasses.replace(view, hand_results=())
            rendered[key] = renderer(view, names, last=list(last))
        return rendered[key]

    def ended(seq: int) -> bool:
        return seq > 0 and len(states[seq].hand_results) > len(states[seq - 1].hand_results)

    hand_ends = [seq for seq in range(1, len(states)) if ended(seq)] + [len(states) - 1]
    games = {m.id for m in fake.public_messages() if is_game_message(m)}
    pictured = 0
    checked: set[bytes] = set()
    unchecked: list[bytes] = []
    count = 0
    for message in fake.public_messages():
        for version in _versions(message):
            text = version.text()
            seq = shown_seq(version)
            if seq is None and message.id in games and version.attachments and renderer:
                data = version.attachments[0].data
                seq = next((s for s in hand_ends if picture(s) == data), None)
                assert seq is not None, f"game message {version.id} shows no state's picture"
            if seq is None:
                labels = [m.group(0) for m in TILE_LABEL.finditer(text)]
                assert not labels, f"tile labels {labels} in public message {version.id}: {text}"
                unchecked.extend(a.data for a in version.attachments)
                continue
            count += 1
            state = states[seq]
            hidden = {str(t) for hand in state.hands for t in hand}
            if shown_seq(version) is None and ended(seq):
                # A hand's final position: the tiles left in that hand's hands stay hidden
                # (those of the next deal are not its business).
                before = states[seq - 1]
                played = before.public_view().played_tiles() | state.public_view().played_tiles()
                kept = {t for hand in before.hands for t in hand}
                result = state.hand_results[-1]  # its line, and All Fives' spinner arms
                line = {Tile(*pair) for pair in (*result.line, *result.arms[0], *result.arms[1])}
                hidden = {str(t) for t in kept - line - played}
            named = {m.group(0) for m in TILE_LABEL.finditer(text)}
            assert not hidden & named, f"hidden tiles {hidden & named} in {version.id}: {text}"
            for att in version.attachments:
                assert att.filename == "table.png", att.filename
                if renderer is not None and att.data not in checked:
                    running = shown_seq(version) is not None
                    assert att.data == picture(seq, running), (
                        f"picture of message {version.id} at {seq}"
                    )
                    checked.add(att.data)
                pictured += 1
    if renderer is not None:
        assert all(data in checked for data in unchecked)
        assert pictured, "no public picture was checked"
    return count


async def answer(result: InteractionResult) -> str:
    """The ephemeral text the bot answered a click or command with (reply or followup)."""
    if result.type in (4,) and result.ephemeral:
        return result.content
    (message, *_) = await result.wait_for_followups(1)
    assert message.ephemeral, message
    return message.content


async def forget_me(fake: FakeDiscord, user: Any) -> StoredMessage:
    """``user`` asks ``/domino forget-me`` and confirms; returns the answered message."""
    asked = await fake.slash(user, fake.channel_id, "domino forget-me", {})
    assert asked.message is not None
    yes = next(c for c in asked.message.custom_ids() if ":yes:" in c)
    await (await fake.click(user, asked.message, yes)).wait_for_edits(1)
    return asked.message
