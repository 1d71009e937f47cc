"""``python -m benchmarks.web --breakdown``'s account of where the time went, on made-up
timings: the slow requests apart, the collections, the stalls and the kept answers."""

from __future__ import annotations

from benchmarks.web import Sent, explain


def test_the_breakdown_puts_each_request_beside_its_handler() -> None:
    sent = [
        Sent(due=10.000, sent=10.001, done=10.006, path="/s/1", ok=True),
        Sent(due=10.005, sent=10.006, done=10.150, path="/s/1", ok=True),  # waited 140 ms
    ]
    events = [
        {"e": "req", "t": 10.002, "end": 10.005, "path": "/s/1", "db": 0.001,
         "statements": 4, "render": 0.001},
        {"e": "req", "t": 10.146, "end": 10.149, "path": "/s/1", "db": 0.001,
         "statements": 4, "render": 0.001},
        {"e": "gc", "t": 10.006, "took": 0.139, "cpu": 0.004, "gen": 2},
        {"e": "stall", "t": 10.006, "took": 0.139},
        {"e": "kept", "t": 10.010, "key": "recent", "took": 0.002},
    ]
    lines = explain(sent, events)
    assert lines[0].startswith("all (2), median/p99 ms:")
    assert lines[1].startswith("slow (1), median/p99 ms: client late 1.0/1.0, before handler"
                               " 140.0/140.0, handler 3.0/3.0")
    assert (
        "gc gen 2: 1 collections, median 139.0 ms, max 139.0 ms"
        " (its CPU: median 4.0 ms, max 4.0 ms)"
    ) in lines
    assert any(line.startswith("event loop stalls over 5 ms: 1,") for line in lines)
    assert "read again (kept answers): recent 1 times, at most 2.0 ms" in lines
    assert lines[-1] == "slow requests due in seconds [0] of the run"
