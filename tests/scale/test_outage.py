"""The database out of reach: a player is told so in his language (not "something went
wrong"), the outage is logged once with its end (no traceback per click), the lease heartbeat
backs off, and play goes on once the database answers again. A real PostgreSQL server behind a
proxy the test cuts."""

from __future__ import annotations

import logging
from collections.abc import AsyncIterator
from typing import Any

import pytest

import bot.privacy.forget as forget
from bot.queue.service import QueueService
from bot.settings import Settings
from bot.store import DatabaseUnavailable, Store
from bot.tables.leases import RETRY_FIRST, ShardLeases
from tests.cogs.helpers import (
    TestBot,
    button_with,
    hand_choice,
    new_table,
    open_hand,
    parse,
    settle,
    start_with_computers,
)
from tests.fakediscord import FakeDiscord, running_bot
from tests.fakediscord.plugin import fake_discord
from tests.scale.proxy import Proxy, url_through

__all__ = ["fake_discord"]

UNREACHABLE = {
    "en-US": "I cannot reach my database right now. Please try again in a minute.",
    "es-ES": "Ahora mismo no puedo conectar con mi base de datos. Vuelve a intentarlo dentro de"
    " un minuto.",
    "es-419": "En este momento no puedo conectarme a mi base de datos. Intenta de nuevo en un"
    " minuto.",
    "pt-BR": "Não consigo acessar meu banco de dados agora. Tente de novo daqui a um minuto.",
}


@pytest.fixture
async def proxied(postgres_databases: Any) -> AsyncIterator[tuple[Proxy, str]]:
    url = postgres_databases.migrated()
    port = int(url.rpartition("@")[2].split("/")[0].rpartition(":")[2])
    proxy = await Proxy("127.0.0.1", port).start()
    try:
        yield proxy, url_through(url, proxy)
    finally:
        await proxy.close()


# A database that does not answer is given up after its own time-out; a loaded machine adds to
# it, so the answers are awaited longer than that.
OUTAGE_WAIT = 30.0


async def test_a_click_during_an_outage_is_told_to_try_again(
    fake_discord: FakeDiscord,
    proxied: tuple[Proxy, str],
    caplog: pytest.LogCaptureFixture,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    fake = fake_discord
    proxy, url = proxied
    # The background loops (forget requests, the open pool's look) go round often, and the
    # outage lasts until each has gone round in it: none may log a traceback either.
    monkeypatch.setattr(forget, "POLL", 0.05)
    looks = {"forget": 0, "pool": 0}

    def counted(name: str, method: Any) -> Any:
        async def call(*args: Any, **kwargs: Any) -> Any:
            looks[name] += 1
            return await method(*args, **kwargs)

        return call

    monkeypatch.setattr(
        forget.Forgetting, "apply_pending", counted("forget", forget.Forgetting.apply_pending)
    )
    monkeypatch.setattr(QueueService, "pool_posts", counted("pool", QueueService.pool_posts))

    def make() -> TestBot:
        made = TestBot(settings)
        made.queue_options = {"pool_every": 0.05}  # type: ignore[attr-defined]
        return made

    settings = Settings(
        discord_token=fake.token,
        database_path=None,
        dev_guild_id=fake.guild_id,
        log_level="INFO",
        database_url=url,
    )
    alice = fake.add_user(1001, "alice", "Alice")
    caplog.set_level(logging.INFO)
    # raise_bot_errors: an ERROR record (a traceback) logged while the bot runs fails the test.
    async with running_bot(fake, make) as bot:
        _, tid = await new_table(fake, bot, alice, variant="two", target=50)
        lobby = fake.message(bot.svc.open_tables()[0].table.lobby_message_id)
        await start_with_computers(fake, bot, alice, lobby)
        await fake.wait_for(lambda: bot.svc.open_tables()[0].turn_seat.kind == "human")  # type: ignore[union-attr]
        hand = (await open_hand(fake, bot, alice, tid)).message
        assert hand is not None
        seq = (await bot.svc.get(tid)).seq

        await proxy.cut()
        # A move, in every language: told to try again; nothing moved.
        for locale, text in UNREACHABLE.items():
            choice = hand_choice(hand)
            click = await fake.click(alice, hand, choice, locale=locale)
            if (p := parse(choice)) and p[0] == "play" and p[2][1] == "ask":
                await click.wait_for_edits(1, timeout=OUTAGE_WAIT)
                click = await fake.click(
                    alice, hand, button_with(hand, "play", "left"), locale=locale
                )
            (said,) = await click.wait_for_followups(1, timeout=OUTAGE_WAIT)
            assert said.ephemeral and said.content == text, said.content
        # A new table, too.
        new = await fake.slash(alice, fake.channel_id, "domino new", {"variant": "two"})
        if new.ephemeral:
            said = new.message
        else:
            said = (await new.wait_for_followups(1, timeout=OUTAGE_WAIT))[0]
        assert said is not None and said.content == UNREACHABLE["en-US"], said.content

        before = dict(looks)
        await fake.wait_for(lambda: all(looks[k] >= before[k] + 2 for k in looks))
        await proxy.restore()
        await fake.wait_for(lambda: True)
        info = await bot.svc.get(tid)
        assert info.seq == seq  # nothing was applied meanwhile
        choice = hand_choice(fake.message(hand.id))
        click = await fake.click(alice, hand, choice)
        if (p := parse(choice)) and p[0] == "play" and p[2][1] == "ask":
            await click.wait_for_edits(1, timeout=OUTAGE_WAIT)
            click = await fake.click(alice, hand, button_with(hand, "play", "left"))
        await click.wait_for_edits(1, timeout=OUTAGE_WAIT)
        assert not click.followups, [m.content for m in click.followups]
        assert (await bot.svc.get(tid)).seq > seq
        await settle(bot)

    records = [r for r in caplog.records if r.name.startswith(("bot", "cogs"))]
    down = [r for r in records if "out of reach (" in r.getMessage()]
    up = [r for r in records if "answers again after" in r.getMessage()]
    assert len(down) == 1 and len(up) == 1, [r.getMessage() for r in records]
    assert down[0].levelno == logging.WARNING and down[0].exc_info is None
    assert not [r for r in records if r.exc_info], "a traceback was logged"
    assert "something went wrong" not in str([m.content for m in fake.ephemeral_messages()])


async def test_the_lease_heartbeat_backs_off_and_logs_once(
    proxied: tuple[Proxy, str], caplog: pytest.LogCaptureFixture
) -> None:
    """While the database is away the heartbeat waits ``RETRY_FIRST``, then twice as long each
    time, up to the heartbeat; it keeps its shards while their leases surely last, then drops
    them once; nothing is logged per attempt or per shard."""
    proxy, url = proxied
    store = await Store.open(url)
    leases = ShardLeases(store, shard_count=4, shard_ids=[0, 1, 2, 3], ttl=3.0)
    try:
        assert (await leases.refresh())[0] == {0, 1, 2, 3}
        caplog.clear()
        caplog.set_level(logging.INFO)
        await proxy.cut()
        waits = []
        for _ in range(6):
            await leases.refresh()
            waits.append(leases._next_wait())
        bounds = [min(leases.heartbeat, RETRY_FIRST * 2**n) for n in range(6)]
        for wait, low in zip(waits, bounds, strict=True):
            assert wait <= low * 1.25 + 1e-9
        assert leases.held == {0, 1, 2, 3}  # the leases surely last yet: kept
        assert waits[1] > waits[0] and waits[2] > waits[1]  # growing
        leases._valid_until = dict.fromkeys(leases.held, 0.0)  # as if 3 s had passed
        _, lost = await leases.refresh()
        assert lost == {0, 1, 2, 3} and not leases.held
        for _ in range(8):
            await leases.refresh()
        assert leases._next_wait() >= leases.heartbeat
        with pytest.raises(DatabaseUnavailable):
            await leases.repo.now()
        await proxy.restore()
        assert (await leases.refresh())[0] == {0, 1, 2, 3}
    finally:
        await leases.stop()
        await store.close()
    lines = [r.getMessage() for r in caplog.records if r.levelno >= logging.WARNING]
    assert sum("out of reach (" in line for line in lines) == 1, lines
    assert sum("answers again" in line for line in lines) == 1, lines
    assert sum("lease lost" in line for line in lines) == 4, lines  # once per shard
    assert len(lines) == 6, lines
