"""Transcripts of the bot's flows as a person sees them, written from what the fake Discord got.

``python -m tests.fakediscord.transcripts docs/transcripts`` plays each flow (a challenge and a
partners match between four people, one person against three computers, practice with a hint,
a match's end and its rematch, /domino stats and achievements, /domino rules, a replay, the
daily deal, the match review with Find a better move, a pairs Swiss tournament) with the real
bot against the fake Discord, in each locale (en-US, es-ES, es-419, pt-BR: the people's
Discord and the server in that language), on SQLite in a temporary folder, with fixed seeds
and a fake clock. For each flow and locale it writes ``<flow>.<locale>.md``: in order, what
each person did, each public message (its text, its buttons' labels, its pictures' alt text),
each private answer ("only Ana sees this"), each edit as the message's new state, and who was
pinged; long stretches of turns of the same shape are shortened ("… 12 more like these").
It also photographs key messages of each flow in English (and a few in Spanish) as 380-px
mock-ups (:mod:`tests.fakediscord.mockup`), and writes an index, ``README.md``.

A flow progresses by the buttons' custom ids, never by the words, so it keeps working when
the messages change. ``--only FLOW`` and ``--locale LOCALE`` narrow the run.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import dataclasses
import re
import sys
import tempfile
import time
import traceback
from collections.abc import Awaitable, Callable, Sequence
from concurrent.futures import ProcessPoolExecutor, as_completed
from pathlib import Path
from typing import Any

from tests.fakediscord.models import StoredMessage

LOCALES = ("en-US", "es-ES", "es-419", "pt-BR")
DAILY_SEED = 20270115
EPOCH = 1_800_000_000.0  # the fake clock's start: 2027-01-15 08:00 UTC
QUIET = 0.03  # seconds without a request to Discord: the bot has said what it had to say
PEOPLE = ((1001, "ana", "Ana"), (1002, "bruno", "Bruno"), (1003, "carla", "Carla"),
          (1004, "diego", "Diego"), (1005, "elena", "Elena"), (1006, "felipe", "Felipe"),
          (1007, "gabi", "Gabi"), (1008, "hugo", "Hugo"))
WORKERS = 6  # a flow mostly waits on the bot: more at once than cores
COMMAND = "python -m tests.fakediscord.transcripts docs/transcripts"


# ----------------------------------------------------------------------------- recording


@dataclasses.dataclass
class Act:
    """Something a person did: a command, a click, a choice in a menu; or time passing."""

    who: str
    what: str
    kind: str = ""  # the custom id's kind ("play", "join", ...) or the command's name
    user_id: int = 0


@dataclasses.dataclass
class Shown:
    """One version of a message as Discord stored it (``first``: the message is new)."""

    message: StoredMessage
    first: bool
    now: float
    pings: tuple[int, ...] = ()


@dataclasses.dataclass
class Gone:
    message_id: int


Event = Act | Shown | Gone


class Recorder:
    """Every message version the fake Discord stores, in the order it stored them, and what
    the people did in between (the fake's ``click``, ``select`` and ``slash`` are wrapped)."""

    def __init__(self, fake: Any, clock: Callable[[], float]) -> None:
        self.fake = fake
        self.clock = clock
        self.events: list[Event] = []
        self.seen: dict[int, int] = {}
        self.gone: set[int] = set()
        self.on = True
        self.names: dict[int, str] = {}
        notify = fake._notify

        def _notify() -> None:
            notify()
            self.scan()

        fake._notify = _notify
        for name in ("click", "select", "slash"):
            setattr(fake, name, self._wrap(name, getattr(fake, name)))

    def _wrap(self, name: str, call: Callable[..., Awaitable[Any]]) -> Callable[..., Any]:
        async def wrapped(user: Any, target: Any, what: Any, *args: Any, **kwargs: Any) -> Any:
            if self.on:
                self.events.append(self.act(name, user, target, what, *args))
            return await call(user, target, what, *args, **kwargs)

        return wrapped

    def act(self, name: str, user: Any, target: Any, what: Any, *args: Any) -> Act:
        person = self.fake._user(user)
        who = person.global_name or person.name
        if name == "slash":
            options = args[0] if args else {}
            shown = " ".join(f"{k}:{self._value(v)}" for k, v in (options or {}).items())
            return Act(who, f"runs `/{what}{' ' + shown if shown else ''}`", what, person.id)
        message = self.fake.message(target)
        comp = message.component(what) or {}
        kind = what.split(":")[1] if what.count(":") else what
        if name == "select":
            values = args[0] if args else []
            labels = [o.get("label", v) for v in values for o in comp.get("options", [])
                      if o.get("value") == v]
            return Act(who, f"chooses **{', '.join(labels) or values}**", kind, person.id)
        label = comp.get("label") or (comp.get("emoji") or {}).get("name") or "?"
        return Act(who, f"presses **{label}**", kind, person.id)

    def _value(self, value: Any) -> str:
        user = getattr(value, "id", None)
        if user is not None and user in self.fake.users:
            return "@" + (self.fake.users[user].global_name or self.fake.users[user].name)
        return str(value)

    def scan(self) -> None:
        """Record the message versions stored since the last scan."""
        if not self.on:
            for m in list(self.fake._messages.values()):
                self.seen[m.id] = len(m.history) + 1
            return
        for m in list(self.fake._messages.values()):
            done = self.seen.get(m.id, 0)
            versions = [*m.history, m]
            if done >= len(versions):
                continue
            for index in range(done, len(versions)):
                version = versions[index] if index < len(m.history) else m.snapshot()
                if version.loading and not version.components and not version.content:
                    continue  # "the bot is thinking": the answer comes as its edit
                first = not any(
                    not v.loading or v.components or v.content for v in versions[:index]
                )
                pings = self._pings(version) if first else ()
                self.events.append(Shown(version, first, self.clock(), pings))
            self.seen[m.id] = len(versions)
        for m in self.fake.deleted_messages:
            if m.id not in self.gone and m.id in self.seen:
                self.gone.add(m.id)
                self.events.append(Gone(m.id))

    def _pings(self, message: StoredMessage) -> tuple[int, ...]:
        """Who the new ``message`` notifies: its mentions the request allowed to ping."""
        if message.ephemeral:
            return ()
        mentioned = [int(x) for x in re.findall(r"<@!?(\d+)>", message.text())]
        if not mentioned:
            return ()
        allowed: Any = None
        for record in reversed(self.fake.requests[-20:]):
            body = record.json if isinstance(record.json, dict) else {}
            body = body.get("data", body) if isinstance(body.get("data"), dict) else body
            if record.method == "POST" and (
                (message.content and body.get("content") == message.content)
                or (message.components and body.get("components") == message.components)
            ):
                allowed = body.get("allowed_mentions", None)
                break
        if allowed is None:
            return tuple(dict.fromkeys(mentioned))
        users = allowed.get("users") or []
        if "users" in (allowed.get("parse") or []):
            return tuple(dict.fromkeys(mentioned))
        return tuple(u for u in dict.fromkeys(mentioned) if str(u) in map(str, users))


# ------------------------------------------------------------------------------ writing


def _when(stamp: int, style: str, now: float) -> str:
    """A Discord timestamp, shown in the reader's language by Discord: here a date, or the
    time from now ("⏲ +2 min")."""
    if style != "R":
        return time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime(stamp))
    seconds = round(stamp - now)
    amount, unit = (abs(seconds), "s") if abs(seconds) < 90 else (abs(seconds) // 60, "min")
    return f"⏲ {'+' if seconds >= 0 else '−'}{amount} {unit}"


class Writer:
    """The Markdown of a recorded flow."""

    def __init__(self, fake: Any, names: dict[int, str]) -> None:
        self.fake = fake
        self.names = names
        self.numbers: dict[int, int] = {}

    def name(self, user_id: int) -> str:
        if user_id in self.names:
            return self.names[user_id]
        user = self.fake.users.get(user_id)
        return (user.global_name or user.name) if user else str(user_id)

    def channel(self, channel_id: int) -> str:
        channel = self.fake.channels.get(channel_id)
        return f"#{channel.name}" if channel else f"#{channel_id}"

    def inline(self, text: str, now: float) -> str:
        text = re.sub(r"<t:(\d+)(?::([tTdDfFR]))?>",
                      lambda m: f"`{_when(int(m[1]), m[2] or 'f', now)}`", text)
        text = re.sub(r"<@!?(\d+)>", lambda m: f"**@{self.name(int(m[1]))}**", text)
        text = re.sub(r"<#(\d+)>", lambda m: f"**{self.channel(int(m[1]))}**", text)
        text = re.sub(r"</([^:>]+):\d+>", r"**/\1**", text)
        return re.sub(r"<a?(:\w+:)\d+>", r"\1", text)

    def component(self, comp: dict[str, Any], message: StoredMessage, now: float) -> list[str]:
        kind = comp.get("type")
        if kind == 10:
            return [self.inline(line, now) for line in str(comp.get("content", "")).split("\n")]
        if kind == 12:
            return [f"🖼️ *picture: {item.get('description') or '(no alt text)'}*"
                    for item in comp.get("items", [])]
        if kind == 9:
            lines = [x for c in comp.get("components", []) for x in self.component(c, message, now)]
            accessory = comp.get("accessory") or {}
            if accessory.get("type") == 2:
                lines[-1:] = [f"{lines[-1] if lines else ''} {_button(accessory)}"]
            return lines
        if kind == 1:
            return [" ".join(_button(c) if c.get("type") == 2 else _select(c)
                             for c in comp.get("components", []))]
        if kind == 14:
            return ["───"]
        if kind == 17:
            return [x for c in comp.get("components", []) for x in self.component(c, message, now)]
        return []

    def lines(self, message: StoredMessage, now: float) -> list[str]:
        out = [self.inline(line, now) for line in message.content.split("\n")] if (
            message.content) else []
        pictured: set[str] = set()
        for embed in message.embeds:
            if embed.get("title"):
                out.append(f"**{self.inline(str(embed['title']), now)}**")
            if embed.get("description"):
                out += [self.inline(x, now) for x in str(embed["description"]).split("\n")]
            for fld in embed.get("fields") or []:
                out += [f"**{fld.get('name', '')}**",
                        *[self.inline(x, now) for x in str(fld.get("value", "")).split("\n")]]
            if (embed.get("footer") or {}).get("text"):
                out.append(self.inline(str(embed["footer"]["text"]), now))
            url = str((embed.get("image") or {}).get("url") or "")
            if url:
                att = message.attachment(url.removeprefix("attachment://"))
                alt = att.description if att is not None and att.description else "(no alt text)"
                out.append(f"🖼️ *picture: {alt}*")
                pictured.add(url.removeprefix("attachment://"))
        for comp in message.components:
            out += self.component(comp, message, now)
        if not message.v2:
            out += [f"📎 *{a.filename}" + (f": {a.description}" if a.description else "") + "*"
                    for a in message.attachments if a.filename not in pictured]
        return out

    def shown(self, event: Shown) -> str:
        m = event.message
        if m.ephemeral:
            place = f"🔒 only {self.name(m.ephemeral_user_id or 0)} sees this"
        else:
            number = self.numbers.setdefault(m.id, len(self.numbers) + 1)
            place = f"message {number} in {self.channel(m.channel_id)}"
        head = f"**{'New' if event.first else 'Edited'}** · {place}"
        if event.pings:
            head += " · 🔔 pings " + ", ".join(f"@{self.name(u)}" for u in event.pings)
        body = "\n".join(f"> {line}" if line else ">" for line in self.lines(m, event.now))
        return f"{head}\n\n{body or '> (empty)'}\n"

    def event(self, event: Event) -> str:
        if isinstance(event, Act):
            return f"👤 **{event.who}** {event.what}\n" if event.who else f"{event.what}\n"
        if isinstance(event, Gone):
            number = self.numbers.get(event.message_id)
            return f"🗑️ *message {number} is deleted*\n" if number else "🗑️ *a message is deleted*\n"
        return self.shown(event)


def _button(comp: dict[str, Any]) -> str:
    label = comp.get("label") or (comp.get("emoji") or {}).get("name") or ""
    if comp.get("emoji") and comp.get("label"):
        label = f"{comp['emoji'].get('name', '')} {label}"
    link = " ↗" if comp.get("style") == 5 else ""
    return f"`[{label}{link}]`" + (" *(off)*" if comp.get("disabled") else "")


def _select(comp: dict[str, Any]) -> str:
    options = ", ".join(str(o.get("label", "")) for o in comp.get("options", []))
    return f"`[▾ {comp.get('placeholder') or ''}]`" + (f" *({options})*" if options else "")


def blocks(events: Sequence[Event], places: dict[int, str] | None = None
           ) -> list[list[Event]]:
    """The events cut before each act: what a person did, then what followed: first his own
    private answer, then the public messages by the name of their channel (``places``) and
    by message, then the others' private ones, each kind in the order Discord stored them:
    what one click causes at once (a table's feed, another table's, a private refresh) comes
    in a racing order."""
    places = places or {}
    out: list[list[Event]] = []
    for event in events:
        if isinstance(event, Act) or not out:
            out.append([event])
        else:
            out[-1].append(event)
    for block in out:
        actor = block[0].user_id if isinstance(block[0], Act) else None

        producers: dict[int, tuple[str, int, int]] = {}
        for e in block:  # a new message: what made it (its buttons' namespace and table)
            if isinstance(e, Shown) and e.message.id not in producers:
                parts = (e.message.custom_ids() or [""])[0].split(":") if e.first else [""]
                table = int(parts[2]) if len(parts) > 2 and parts[2].isdigit() else 0
                producers[e.message.id] = (parts[0], table, e.message.id)

        def rank(e: Event, actor: int | None = actor,
                 producers: dict[int, tuple[str, int, int]] = producers
                 ) -> tuple[int, str, str, int, int]:
            if isinstance(e, Act):
                return (-1, "", "", 0, 0)
            if isinstance(e, Shown) and e.message.ephemeral:
                return (0 if e.message.ephemeral_user_id == actor else 2, "", "", 0, 0)
            if isinstance(e, Shown):  # tables publish side by side: by place, then producer
                return (1, places.get(e.message.channel_id, ""), *producers[e.message.id])
            return (1, "", "", 0, 0)

        block.sort(key=rank)
    return out


TURNS = ("play", "draw", "pass", "tiles", "back", "time")


def routine(block: Sequence[Event]) -> bool:
    """A turn like the others: a move (or time passing) that posts no new public message."""
    first = block[0]
    return (isinstance(first, Act) and first.kind in TURNS and not any(
        isinstance(e, Shown) and e.first and not e.message.ephemeral for e in block))


def abbreviate(parts: list[list[Event]], head: int = 3, tail: int = 2) -> list[list[Event] | int]:
    """Runs of routine turns longer than ``head`` + ``tail`` + 1: the first ``head`` and the
    last ``tail`` stay, the others become their count."""
    out: list[list[Event] | int] = []
    i = 0
    while i < len(parts):
        j = i
        while routine(parts[i]) and j + 1 < len(parts) and routine(parts[j + 1]):
            j += 1
        run = parts[i:j + 1]
        if len(run) > head + tail + 1:
            out += [*run[:head], len(run) - head - tail, *run[-tail:]]
        else:
            out += run
        i = j + 1
    return out


def render(title: str, intro: str, locale: str, events: Sequence[Event], writer: Writer,
           *, short: bool = True) -> str:
    places = {c.id: c.name for c in writer.fake.channels.values()}
    parts: list[list[Event] | int] = list(blocks(events, places))
    if short:
        parts = abbreviate(blocks(events, places))
    out = [f"# {title} ({locale})\n", f"{intro}\n",
           f"*Generated by `{COMMAND}` from what the real bot sent to the test Discord; "
           "pictures are given by their alt text.*\n"]
    for part in parts:
        if isinstance(part, int):
            out.append(f"*… {part} more turns like these …*\n")
            continue
        out += [writer.event(e) for e in part]
    return "\n".join(out)


# ------------------------------------------------------------------------------ playing


class Session:
    """One flow's world: the fake Discord in a locale, the bot, the people, the recorder."""

    def __init__(self, fake: Any, bot: Any, clock: Any, locale: str, recorder: Recorder,
                 people: list[Any]) -> None:
        self.fake, self.bot, self.clock, self.locale = fake, bot, clock, locale
        self.recorder = recorder
        self.people = people
        self.keys: list[tuple[str, StoredMessage]] = []

    async def quiet(self) -> None:
        """Wait until the bot has done what it had to: its queues idle, then no request to
        Discord for a moment."""
        from tests.cogs.helpers import settle

        for cog_name in ("Domino", "Tournament", "Daily", "Review", "Records"):
            cog = self.bot.get_cog(cog_name)
            idle = getattr(cog, "idle", None)
            if idle is not None:
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(idle(), 30)
        await settle(self.bot)
        count, still = len(self.fake.requests), time.monotonic()
        deadline = still + 30
        while time.monotonic() < deadline:
            await asyncio.sleep(0.03)
            if len(self.fake.requests) != count:
                count, still = len(self.fake.requests), time.monotonic()
            elif time.monotonic() - still >= QUIET:
                return

    async def slash(self, user: Any, command: str, options: dict[str, Any] | None = None,
                    channel: int | None = None) -> Any:
        result = await self.fake.slash(user, channel or self.fake.channel_id, command,
                                       options or {}, locale=self.locale, timeout=60)
        await self.answered(result)
        return result

    async def answered(self, result: Any) -> None:
        """Wait for the answer of a deferred interaction ("thinking…"), then for quiet."""
        if result.type == 5:
            await self.fake.wait_for(
                lambda: result.followups or (result.message and not result.message.loading),
                timeout=120, what="the answer of a deferred interaction")
        await self.quiet()

    async def press(self, user: Any, message: Any, custom_id: str) -> Any:
        result = await self.fake.click(user, message, custom_id, locale=self.locale, timeout=60)
        await self.answered(result)
        return result

    async def choose(self, user: Any, message: Any, custom_id: str, values: list[str]) -> Any:
        result = await self.fake.select(user, message, custom_id, values, locale=self.locale,
                                        timeout=60)
        await self.answered(result)
        return result

    def key(self, name: str, message: StoredMessage) -> None:
        """Photograph this message as ``name``: its state at the end of the flow, or this
        state if ``message`` is a snapshot."""
        self.keys.append((name, message))

    async def catch_up(self, within: float = 1.0) -> None:
        """Run what falls due in the next moment (a computer's move, the pause after a hand)
        without a word: a second is nothing to a person."""
        for _ in range(1000):
            due = self.bot.svc.scheduler.next_due()
            if due is None or due > self.clock() + within:
                return
            self.clock.now = max(self.clock.now, due)
            await self.bot.svc.tick()
            await self.quiet()

    async def wait_passes(self, seconds: float) -> None:
        """Time passes on the bot's clock (the people are idle)."""
        if self.recorder.on and seconds:
            self.recorder.events.append(Act("", f"⏱️ *{round(seconds)} s pass*", "time"))
        self.clock.advance(seconds)
        await self.bot.svc.tick()
        await self.quiet()
        await self.catch_up()

    async def play_match(self, table_id: int, users: Sequence[Any], *, max_turns: int = 400,
                         hint: bool = False, shoot: int | None = None) -> None:
        """The people play their turns (the first button offered) until the match is over
        (or ``max_turns`` were played); ``shoot``: the game message after that many turns is
        a key message."""
        from tests.cogs.helpers import game_message, human_to_move, play_turn

        by_id = {u.id: u for u in users}
        hands: dict[int, Any] = {}
        for _ in range(max_turns + 1):
            await self.quiet()
            await self.catch_up()
            who = await self.fake.wait_for(lambda: human_to_move(self.bot, table_id),
                                           timeout=60, what="a turn or the end")
            if who == "over" or _ == max_turns:
                break
            if _ == shoot:
                self.key("game", (await game_message(self.fake, self.bot, table_id)).snapshot())
            user = by_id[int(who)]
            if hint:
                hint = not await self.ask_hint(user, table_id, hands)
            await play_turn(self.fake, self.bot, table_id, user, hands, locale=self.locale)
        await self.quiet()


    async def ask_hint(self, user: Any, table_id: int, hands: dict[int, Any]) -> bool:
        """``user`` presses Hint on his turn if he has a choice (two tiles or more to play);
        whether he did."""
        from tests.cogs.helpers import button, hand_choice, open_hand

        if user.id not in hands:
            hands[user.id] = await open_hand(self.fake, self.bot, user, table_id,
                                             locale=self.locale)
        hand = hands[user.id].message
        await self.fake.wait_for(lambda: _offers(hand, hand_choice), timeout=60,
                                 what="a turn on the hand message")
        plays = [c for c in hand.custom_ids() if c.startswith("domino:play:")
                 and not (hand.component(c) or {}).get("disabled")]
        if len(plays) < 2:
            return False
        await self.press(user, hand, button(hand, "hint"))
        self.key("hand-with-hint", hand.snapshot())
        return True


def _offers(message: StoredMessage, choice: Callable[[StoredMessage], str]) -> bool:
    try:
        return bool(choice(message))
    except LookupError:
        return False


def first_id(message: StoredMessage, prefix: str) -> str | None:
    """The custom id of the first enabled component of ``message`` starting with ``prefix``."""
    for comp in message.all_components():
        cid = comp.get("custom_id", "")
        if cid.startswith(prefix) and not comp.get("disabled"):
            return str(cid)
    return None


def with_id(fake: Any, prefix: str, *, ephemeral: bool | None = False) -> list[StoredMessage]:
    return [m for m in fake._messages.values()
            if (ephemeral is None or m.ephemeral == ephemeral) and first_id(m, prefix)]


async def open_table(s: Session, host: Any, options: dict[str, Any]) -> tuple[int, StoredMessage]:
    from tests.cogs.helpers import table_id_of

    result = await s.slash(host, "domino new", options)
    lobby = result.message
    return table_id_of(lobby), lobby


async def two_people_match(s: Session, variant: str = "partners", target: int = 50) -> int:
    """Ana opens a table, Bruno joins, Ana starts (computers fill the other seats), they play
    it out; the table id."""
    ana, bruno = s.people[:2]
    tid, lobby = await open_table(s, ana, {"variant": variant, "target": target})
    await s.press(bruno, lobby, first_id(lobby, "domino:join:") or "")
    start = await s.press(ana, lobby, first_id(lobby, "domino:start:") or "")
    for message in start.followups:
        fill = first_id(message, "domino:fill:")
        if fill:
            await s.press(ana, message, fill)
    await s.play_match(tid, [ana, bruno])
    return tid


def match_end_post(s: Session) -> StoredMessage:
    (post, *_) = reversed(with_id(s.fake, "domino:rematch:"))
    return post


# -------------------------------------------------------------------------------- flows


async def flow_challenge(s: Session) -> None:
    from tests.cogs.helpers import table_id_of

    ana, bruno, carla, diego = s.people[:4]
    result = await s.slash(ana, "domino challenge", {
        "variant": "partners", "player": bruno, "player2": carla, "player3": diego,
        "target": 50})
    card = result.message
    s.key("challenge", card)
    tid = table_id_of(card)
    for user in (bruno, carla, diego):
        await s.press(user, card, first_id(card, "domino:accept:") or "")
    await s.play_match(tid, [ana, bruno, carla, diego], shoot=6)
    s.key("match-end", match_end_post(s))


async def flow_computers(s: Session) -> None:
    from tests.cogs.helpers import open_hand, start_with_computers

    ana = s.people[0]
    tid, lobby = await open_table(s, ana, {"variant": "partners", "target": 50})
    s.key("lobby", lobby.snapshot())
    await start_with_computers(s.fake, s.bot, ana, lobby)
    await s.quiet()
    hand = await open_hand(s.fake, s.bot, ana, tid, locale=s.locale)
    await s.quiet()
    s.key("hand", hand.message.snapshot())
    await s.play_match(tid, [ana], shoot=3)


async def flow_practice(s: Session) -> None:
    ana = s.people[0]
    await s.slash(ana, "domino practice", {"variant": "draw"})
    (info,) = s.bot.svc.open_tables()
    await s.play_match(info.id, [ana], hint=True, max_turns=6)
    await resign(s, ana, info.id)


async def resign(s: Session, user: Any, table_id: int) -> None:
    """``user`` presses Resign on the game message and confirms."""
    from tests.cogs.helpers import game_message

    game = await game_message(s.fake, s.bot, table_id)
    asked = await s.press(user, game, first_id(game, "domino:resign:") or "")
    for message in asked.followups:
        confirm = first_id(message, "domino:resignok:")
        if confirm:
            await s.press(user, message, confirm)


async def flow_rematch(s: Session) -> None:
    ana, bruno = s.people[:2]
    await two_people_match(s)
    post = match_end_post(s)
    for user in (ana, bruno):
        cid = first_id(post, "domino:rematch:")
        if cid:
            await s.press(user, post, cid)
    s.key("match-end", post)


async def setup_match(s: Session, variant: str = "partners") -> int:
    """A match between Ana and Bruno, played before the flow's transcript begins."""
    s.recorder.on = False
    tid = await two_people_match(s, variant)
    s.recorder.on = True
    s.recorder.scan()
    return tid


async def flow_stats(s: Session) -> None:
    ana = s.people[0]
    await setup_match(s)
    stats = await s.slash(ana, "domino stats", {})
    s.key("stats", _answer(s, stats))
    shown = await s.slash(ana, "domino achievements", {})
    s.key("achievements", _answer(s, shown))


def _answer(s: Session, result: Any) -> StoredMessage:
    """The message a command was answered with (its followup when it was deferred)."""
    return result.followups[-1] if result.followups else result.message


async def flow_rules(s: Session) -> None:
    ana = s.people[0]
    result = await s.slash(ana, "domino rules", {"variant": "partners"})
    message = _answer(s, result)
    s.key("rules", message)
    for comp in message.all_components():
        if comp.get("type") == 3 and len(comp.get("options", [])) > 1:
            await s.choose(ana, message, comp["custom_id"], [comp["options"][1]["value"]])
            break
        if comp.get("type") == 2 and comp.get("custom_id") and not comp.get("disabled"):
            await s.press(ana, message, comp["custom_id"])
            break


async def flow_replay(s: Session) -> None:
    ana = s.people[0]
    tid = await setup_match(s)
    result = await s.slash(ana, "domino replay", {"table": tid})
    message = _answer(s, result)
    s.key("replay", message)
    cid = first_id(message, "domino:replay:")
    if cid:
        await s.press(ana, message, cid)


async def flow_daily(s: Session) -> None:
    ana = s.people[0]
    await s.slash(ana, "domino daily play", {"variant": "draw"})
    for _ in range(4):  # one leg after another
        tables = [t for t in s.bot.svc.open_tables() if t.status in ("running", "lobby")]
        if not tables:
            break
        await s.play_match(tables[0].id, [ana])
        await s.quiet()
    await s.slash(ana, "domino daily board", {"variant": "draw"})
    posts = [m for m in s.fake.public_messages() if m.v2 and m.media()]
    if posts:
        s.key("result", posts[-1])


async def flow_review(s: Session) -> None:
    ana = s.people[0]
    review = s.bot.get_cog("Review")
    if review is not None:
        review.reviews.iterations = 40  # a quick search, the same for a seed
        review.reviews.per_request = 1_000
    tid = await setup_match(s, "draw")
    result = await s.slash(ana, "domino review", {"table": tid})
    await s.fake.wait_for(lambda: result.followups, timeout=120, what="the review")
    await s.quiet()
    message = _answer(s, result)
    s.key("review", message)
    cid = first_id(message, "review:open:")
    if not cid:
        return
    await s.press(ana, message, cid)
    exercise = s.fake.ephemeral_messages(ana)[-1]
    s.key("find-a-better-move", exercise.snapshot())
    for prefix in ("review:try:", "review:done:"):
        cid = first_id(exercise, prefix)
        if cid:
            await s.press(ana, exercise, cid)


async def flow_tournament(s: Session) -> None:
    host, people = s.fake.owner, s.people[:8]
    await s.slash(host, "domino tournament create", {
        "name": "Friday pairs", "variant": "partners", "format": "pairs", "rounds": 2,
        "hands": 1})
    await s.wait_passes(0)
    (announce, *_) = with_id(s.fake, "tournament:")
    s.key("announcement", announce)
    for first, second in zip(people[::2], people[1::2], strict=True):
        await s.slash(first, "domino tournament register", {"partner": second})
        asked = with_id(s.fake, "tournament:partner:", ephemeral=None)
        invitation = next(m for m in reversed(asked)
                          if f"<@{second.id}>" in m.text() or m.ephemeral_user_id == second.id)
        cid = first_id(invitation, "tournament:partner:") or ""
        yes = next((c for c in invitation.custom_ids() if ":yes" in c), cid)
        await s.press(second, invitation, yes)
    await s.slash(host, "domino tournament start", {})
    repo = s.bot.get_cog("Tournament").events.repo
    pressed: set[tuple[int, int]] = set()
    for _ in range(100):
        await s.wait_passes(0)
        for post in with_id(s.fake, "tournament:checkin:") + with_id(s.fake, "tournament:here:"):
            cid = first_id(post, "tournament:checkin:") or first_id(post, "tournament:here:")
            for user in people:
                if cid and f"<@{user.id}>" in post.text() and (post.id, user.id) not in pressed:
                    pressed.add((post.id, user.id))
                    await s.press(user, post, cid)
        for info in s.bot.svc.open_tables():
            if info.status == "running":
                await s.play_match(info.id, people)
        event = await repo.latest(s.fake.guild_id)
        if event is not None and not event.is_open:
            break
        if not any(t.status == "running" for t in s.bot.svc.open_tables()):
            await s.wait_passes(60)  # nothing to play: the next step is due later
    await s.quiet()
    await s.slash(people[0], "domino tournament standings", {})
    posts = [m for m in s.fake.public_messages() if m.channel_id == s.fake.channel_id]
    if posts:
        s.key("podium", posts[-1])


@dataclasses.dataclass(frozen=True)
class Flow:
    slug: str
    title: str
    intro: str
    play: Callable[[Session], Awaitable[None]]
    clock: bool = True  # False: the real clock (a flow that needs none)


FLOWS = (
    Flow("challenge", "A challenge and a partners match of four people",
         "Ana challenges Bruno, Carla and Diego to a partners match to 50; they accept and "
         "play it to its end, each through his private hand message.", flow_challenge),
    Flow("computers", "One person against three computers",
         "Ana opens a partners table, starts it with computer players and plays through her "
         "private hand message.", flow_computers),
    Flow("practice", "Practice with a hint",
         "Ana practises the draw game against a computer, asks the expert for a hint, plays a "
         "few turns and resigns.",
         flow_practice),
    Flow("rematch", "A match's end and the rematch",
         "Ana and Bruno play a partners match to 50 (computers in the other two seats), then "
         "both press Rematch.", flow_rematch),
    Flow("stats", "/domino stats and /domino achievements",
         "After a partners match with Bruno and two computers (not shown), Ana asks for her "
         "figures and achievements.",
         flow_stats),
    Flow("rules", "/domino rules", "Ana asks for the rules of the partners game.", flow_rules),
    Flow("replay", "A replay",
         "After a partners match with Bruno and two computers (not shown), Ana asks for its "
         "replay and turns a page.",
         flow_replay),
    Flow("daily", "The daily deal",
         "Ana plays today's draw deal against the expert computers, then asks for the board.",
         flow_daily),
    Flow("review", "The match review and Find a better move",
         "After a draw match against Bruno (not shown), Ana asks for her review, opens Find a "
         "better move, tries a move and closes it.", flow_review),
    Flow("tournament", "A pairs Swiss tournament",
         "The server's owner opens a pairs Swiss of two rounds of one hand; four pairs register "
         "(each partner accepts the invitation), everyone says he is here and plays his turns, "
         "then the standings and the podium.",
         flow_tournament),
)


# ------------------------------------------------------------------------------ running


@dataclasses.dataclass
class Result:
    slug: str
    locale: str
    markdown: str
    raw: list[Event]
    pages: list[tuple[str, str]]  # (key name, mock-up HTML)
    fake: Any  # the fake Discord the flow ran against (closed; its messages kept)


async def run_flow(flow: Flow, locale: str, folder: Path, *, short: bool = True) -> Result:
    """Play ``flow`` in ``locale`` and write down what Discord received."""
    from tests.cogs.helpers import FakeClock, factory
    from tests.fakediscord import FakeDiscord, running_bot
    from tests.fakediscord.mockup import message_html

    clock = FakeClock()
    clock.now = EPOCH
    async with FakeDiscord(locale=locale, guild_name="Domino Club") as fake:
        people = [fake.add_user(i, name, shown) for i, name, shown in PEOPLE]
        recorder = Recorder(fake, clock)
        # (computers move when the fake clock is moved on: one edit per move, not a burst
        # as fast as the machine allows)
        base = factory(fake, folder / f"{flow.slug}-{locale}.sqlite3", clock=clock,
                       computer_delay=1.0)

        def make() -> Any:
            bot = base()
            bot.daily_options = {"seed_source": lambda: DAILY_SEED}  # the day's deal
            return bot

        async with running_bot(fake, make, ready_timeout=120) as bot:
            recorder.seen.update({m.id: len(m.history) + 1 for m in fake._messages.values()})
            recorder.events.clear()
            session = Session(fake, bot, clock, locale, recorder, people)
            try:
                await flow.play(session)
            except BaseException:
                names = {u.id: (u.global_name or u.name) for u in fake.users.values()}
                broken = render(flow.title, flow.intro, locale, recorder.events,
                                Writer(fake, names), short=short)
                (folder / "broken.md").write_text(broken, encoding="utf-8")
                raise
            await session.quiet()
        # (written once the bot is closed: all it sent is there)
        recorder.scan()
        names = {u.id: (u.global_name or u.name) for u in fake.users.values()}
        writer = Writer(fake, names)
        markdown = render(flow.title, flow.intro, locale, recorder.events, writer,
                          short=short)
        pages = []
        for name, m in session.keys:
            shown = m if m.history == [] and m is not fake.message(m.id) else fake.message(
                m.id)
            if shown.v2 or shown.embeds:
                pages.append((name, message_html(shown, names, now=clock())))
        return Result(flow.slug, locale, markdown, recorder.events, pages, fake)


def _job(slug: str, locale: str, out: str, shots: bool) -> tuple[str, str, list[str], float]:
    """One flow in one locale, in its own process: its transcript and screenshots written."""
    from tests.fakediscord.mockup import screenshots

    flow = next(f for f in FLOWS if f.slug == slug)
    started = time.monotonic()
    target = Path(out)
    with tempfile.TemporaryDirectory() as folder:
        try:
            result = asyncio.run(run_flow(flow, locale, Path(folder)))
        finally:
            broken = Path(folder) / "broken.md"
            if broken.exists():
                (target / f"{slug}.{locale}.broken.md").write_text(broken.read_text())
    (target / f"{slug}.{locale}.md").write_text(result.markdown, encoding="utf-8")
    written: list[str] = []
    if shots and result.pages:
        short = locale.split("-")[0]
        files = [(page, target / f"{slug}-{name}.{short}.png") for name, page in result.pages]
        screenshots(files)
        written = [p.name for _, p in files]
    return slug, locale, written, time.monotonic() - started


SPANISH_SHOTS = ("computers", "challenge")  # flows also photographed in Spanish


def index(shots: dict[str, list[str]]) -> str:
    lines = [
        "# The messages on a phone: transcripts\n",
        "What a person sees in each flow, in order, in each language the bot speaks: each "
        "public message (its words, its buttons, its pictures' alt text), each private answer "
        "(\"only Ana sees this\"), each edit as the message's new state and who is pinged. "
        "They are written from what the real bot sent to the test Discord "
        "(`tests/fakediscord`), with fixed seeds and a fake clock. Regenerate them all "
        f"(a few minutes): `{COMMAND}`.\n",
        "The pictures are mock-ups at a phone's width (380 px) drawn from the messages' "
        "components by `tests/fakediscord/mockup.py`, not screenshots of Discord's app.\n",
        "| flow | en-US | es-ES | es-419 | pt-BR | mock-ups |",
        "|---|---|---|---|---|---|",
    ]
    for flow in FLOWS:
        links = " | ".join(f"[{loc}]({flow.slug}.{loc}.md)" for loc in LOCALES)
        pictures = ", ".join(f"[{Path(p).stem}]({p})" for p in sorted(shots.get(flow.slug, [])))
        lines.append(f"| {flow.title} | {links} | {pictures} |")
    return "\n".join(lines) + "\n"


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("out", nargs="?", default="docs/transcripts")
    parser.add_argument("--only", action="append", choices=[f.slug for f in FLOWS])
    parser.add_argument("--locale", action="append", choices=LOCALES)
    parser.add_argument("--no-pictures", action="store_true")
    args = parser.parse_args(argv)
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    flows = [f for f in FLOWS if not args.only or f.slug in args.only]
    locales = args.locale or list(LOCALES)
    jobs = [(f.slug, loc, str(out), not args.no_pictures and (
        loc == "en-US" or (loc == "es-ES" and f.slug in SPANISH_SHOTS)))
        for f in flows for loc in locales]
    started = time.monotonic()
    shots: dict[str, list[str]] = {}
    failed: list[str] = []
    with ProcessPoolExecutor(max_workers=min(WORKERS, len(jobs))) as pool:
        futures = {pool.submit(_job, *job): job for job in jobs}
        for future in as_completed(futures):
            slug, locale = futures[future][:2]
            try:
                _, _, written, seconds = future.result()
            except Exception:  # a flow that broke: the others still write theirs
                failed.append(f"{slug} {locale}")
                print(f"{slug} {locale}: FAILED", flush=True)
                traceback.print_exc()
                continue
            shots.setdefault(slug, []).extend(written)
            print(f"{slug} {locale}: {seconds:.0f} s, {len(written)} pictures", flush=True)
    if not args.only and not args.locale:
        for png in out.glob("*.png"):
            shots.setdefault(png.name.split("-")[0], [])
        (out / "README.md").write_text(index(_pictures(out)), encoding="utf-8")
    print(f"wrote {out} in {time.monotonic() - started:.0f} s")
    if failed:
        raise SystemExit(f"failed: {', '.join(failed)}")


def _pictures(out: Path) -> dict[str, list[str]]:
    found: dict[str, list[str]] = {}
    for flow in FLOWS:
        found[flow.slug] = [p.name for p in out.glob(f"{flow.slug}-*.png")]
    return found


if __name__ == "__main__":
    sys.exit(main())
