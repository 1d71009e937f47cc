"""The count of requests to Discord: kinds, routes, purposes."""

from __future__ import annotations

import asyncio

from bot.traffic import BOT, INTERACTION, Traffic, kind_of, purpose, route_of


def test_kinds_and_routes() -> None:
    assert kind_of("/api/v10/interactions/123/abc.def/callback") == INTERACTION
    assert kind_of("/api/v10/webhooks/55/tok-en/messages/@original") == INTERACTION
    assert kind_of("/api/v10/channels/9/messages") == BOT
    assert route_of("PATCH", "/api/v10/webhooks/55/tok/messages/77") == (
        "PATCH /webhooks/{id}/{token}/messages/{id}"
    )
    assert route_of("POST", "/api/v10/channels/9/messages/8/threads") == (
        "POST /channels/{id}/messages/{id}/threads"
    )


def test_purpose_from_context_or_task() -> None:
    traffic = Traffic(clock=lambda: 0.0)

    async def main() -> None:
        with purpose("game"):
            traffic.add("PATCH", "/api/v10/channels/1/messages/2", 200)
        traffic.add("POST", "/api/v10/channels/1/messages", 429)
        await asyncio.create_task(_post(traffic), name="table-12-feed")

    asyncio.run(main())
    assert traffic.by("purpose", BOT) == {"game": 1, "Task": 1, "table-feed": 1}
    assert traffic.rate_limited() == 1 and traffic.invalid() == 1
    assert "bot token 3" in traffic.summary()
    assert "bot token 0" in traffic.summary()  # since the last summary


async def _post(traffic: Traffic) -> None:
    traffic.add("POST", "/api/v10/channels/1/messages", 200)
