"""Discord's rate limits in the fake: headers, 429s discord.py honours, the bot's count of them."""

from __future__ import annotations

import asyncio

import aiohttp
import discord
import pytest

from bot.traffic import BOT, Traffic
from tests.fakediscord import FakeDiscord, RateLimits, running_bot
from tests.fakediscord.fake import ApiError


class Clock:
    """The limits' clock, moved by the test."""

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def counted_client(traffic: Traffic) -> discord.Client:
    return discord.Client(intents=discord.Intents.default(), http_trace=traffic.trace())


async def test_every_answer_has_rate_limit_headers(fake_discord: FakeDiscord) -> None:
    fake = fake_discord
    fake.rate_limits = RateLimits(clock=Clock(), route_limit=2, route_per=5.0)
    auth = {"Authorization": f"Bot {fake.token}"}
    url = f"{fake.api_base}/channels/{fake.channel_id}"
    async with aiohttp.ClientSession() as session:
        for remaining in ("1", "0"):
            async with session.get(url, headers=auth) as response:
                assert response.status == 200
                assert response.headers["X-RateLimit-Limit"] == "2"
                assert response.headers["X-RateLimit-Remaining"] == remaining
                assert response.headers["X-RateLimit-Reset-After"] == "5.000"
                assert "X-RateLimit-Reset" in response.headers
                assert "X-RateLimit-Bucket" in response.headers
        async with session.get(url, headers=auth) as response:
            assert response.status == 429
            assert response.headers["X-RateLimit-Scope"] == "user"
            assert response.headers["Retry-After"] == "5"
            assert "X-RateLimit-Global" not in response.headers
            body = await response.json()
            assert body["retry_after"] == 5.0 and body["global"] is False
            assert body["message"] == "You are being rate limited."


async def test_global_limit_spares_interactions(fake_discord: FakeDiscord) -> None:
    fake = fake_discord
    limits = fake.rate_limits = RateLimits(clock=Clock(), global_limit=1, route_limit=100)
    auth = {"Authorization": f"Bot {fake.token}"}
    async with aiohttp.ClientSession() as session:
        async with session.get(f"{fake.api_base}/channels/{fake.channel_id}", headers=auth) as r:
            assert r.status == 200
        async with session.get(f"{fake.api_base}/guilds/{fake.guild_id}", headers=auth) as r:
            assert r.status == 429
            assert r.headers["X-RateLimit-Global"] == "true"
            assert r.headers["X-RateLimit-Scope"] == "global"
            assert (await r.json())["global"] is True
        # an interaction webhook is not counted against the global limit (unknown token: 404)
        async with session.get(
            f"{fake.api_base}/webhooks/{fake.application_id}/nope/messages/@original"
        ) as r:
            assert r.status != 429
    assert limits.refused == ["global"]


async def test_discord_py_waits_out_a_global_429_and_the_count_has_it(
    fake_discord: FakeDiscord,
) -> None:
    fake = fake_discord
    clock = Clock()
    limits = RateLimits(clock=clock, global_limit=3, route_limit=100)
    traffic = Traffic()
    async with running_bot(fake, lambda: counted_client(traffic)) as client:
        fake.rate_limits = limits
        channel = client.get_partial_messageable(fake.channel_id)
        burst = asyncio.gather(*(channel.send(f"m{i}") for i in range(5)))
        await fake.wait_for(lambda: limits.refused, what="a 429")
        clock.now += 1.0  # the next second: the global window is open again
        sent = await asyncio.wait_for(burst, timeout=30)
        assert sorted(m.content for m in sent) == [f"m{i}" for i in range(5)]
    assert traffic.rate_limited() == len(limits.refused) >= 1
    assert traffic.by("status", BOT)["200"] >= 5


async def test_a_burst_to_one_route_gets_a_shared_429_then_succeeds(
    fake_discord: FakeDiscord,
) -> None:
    fake = fake_discord
    clock = Clock()
    limits = RateLimits(clock=clock)
    limits.shared("POST", "/channels/{channel_id}/threads", limit=1, per=0.2)
    traffic = Traffic()
    async with running_bot(fake, lambda: counted_client(traffic)) as client:
        fake.rate_limits = limits
        channel = client.get_channel(fake.channel_id)
        assert isinstance(channel, discord.TextChannel)
        kind = discord.ChannelType.public_thread
        first = await channel.create_thread(name="one", type=kind)
        second = asyncio.ensure_future(channel.create_thread(name="two", type=kind))
        await fake.wait_for(lambda: limits.refused == ["shared"], what="the shared 429")
        clock.now += 0.2
        thread = await asyncio.wait_for(second, timeout=30)
        assert {first.name, thread.name} == {"one", "two"}
    assert traffic.rate_limited() == 1
    assert traffic.by("route")["POST /channels/{id}/threads"] == 3


def test_a_request_counts_when_it_was_received_not_when_the_fake_got_to_it() -> None:
    """Discord counts a request as it reaches its machines: a fake held up by a busy CPU
    counts the requests that came on time in the second they came."""
    clock = Clock()
    limits = RateLimits(clock=clock, global_limit=2, route_limit=100)
    route = ("POST", "/channels/1/messages", "/channels/{channel_id}/messages")
    limits.check(*route, {"channel_id": "1"}, received=1000.0)
    clock.now = 1001.2  # the fake comes to the next two late
    limits.check(*route, {"channel_id": "1"}, received=1000.5)
    with pytest.raises(ApiError) as refused:  # the third of the second [1000, 1001)
        limits.check(*route, {"channel_id": "1"}, received=1000.9)
    assert refused.value.status == 429
    assert limits.refused == ["global"]
