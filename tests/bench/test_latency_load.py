"""The watchers of ``benchmarks/latency_load.py`` (``bench_standings_latency_loaded.py``): a
sample is seen at the standings poll that first showed a snapshot counting its game, never
earlier. Figures are the benchmark's; these only check that it judges "visible" rightly."""

import asyncio
import json
import time

from benchmarks.latency_load import Watch, hand_body


def test_a_game_to_ten_of_the_captains_hands_ends_at_the_19th():
    """Odd hands made by A, even by B, one point each: 10-9 at the 19th (as the captains post)."""
    score = {"A": 0, "B": 0}
    for number in range(1, 20):
        body = json.loads(hand_body(number))
        assert (body["number"], body["tricks_won"]) == (number, 3)
        score[body["makers"]] += 1
        assert max(score.values()) < 10 or number == 19
    assert score == {"A": 10, "B": 9}


def serve(answers: dict[str, list[dict]]):
    """A server answering each path with its next scripted JSON body (the last one again once
    they run out), closing after each answer as a sync gunicorn worker does."""
    asked: list[str] = []

    async def answer(reader, writer):
        path = (await reader.readline()).split()[1].decode()
        while (await reader.readline()) not in (b"\r\n", b""):
            pass
        asked.append(path)
        bodies = answers[path]
        body = json.dumps(bodies.pop(0) if len(bodies) > 1 else bodies[0]).encode()
        head = f"HTTP/1.1 200 OK\r\nContent-Length: {len(body)}\r\nConnection: close\r\n\r\n"
        writer.write(head.encode() + body)
        await writer.drain()
        writer.close()

    return answer, asked


def watch(answers: dict[str, list[dict]], seen=None, bare=None):
    async def run():
        handler, asked = serve(answers)
        server = await asyncio.start_server(handler, "127.0.0.1", 0)
        port = server.sockets[0].getsockname()[1]
        result = {"poll_latencies": []}
        plan = {"port": port, "poll": 0.001, "timeout": 10}
        watcher = Watch(plan, result, 5, 7, expected=3)
        found = await watcher.until_counted(time.perf_counter(), seen, bare)
        server.close()
        return found, asked

    return asyncio.run(run())


STANDINGS = "/api/v1/seasons/5/standings/?limit=1"
STATS = "/api/v1/seasons/5/players/7/stats/"


def test_a_sample_is_seen_at_the_first_version_whose_stats_count_its_game():
    found, asked = watch(
        {
            STANDINGS: [
                {"results_version": 10, "is_current": False},
                {"results_version": 10, "is_current": False},
                {"results_version": 12, "is_current": False},
            ],
            STATS: [
                {"results_version": 10, "stats": {"games": 2}},
                {"results_version": 12, "stats": {"games": 3}},
            ],
        }
    )
    assert found is not None
    _latency, version, late = found
    assert (version, late) == (12, False)
    # each new version is checked once against the stats, an old one never again
    assert asked == [STANDINGS, STATS, STANDINGS, STANDINGS, STATS]


def test_stats_from_a_newer_snapshot_than_the_poll_showed_are_taken_late():
    found, _asked = watch(
        {
            STANDINGS: [{"results_version": 12, "is_current": False}],
            STATS: [{"results_version": 13, "stats": {"games": 3}}],
        }
    )
    assert found is not None and found[1:] == (12, True)


def test_the_floors_bare_change_is_the_first_poll_that_shows_the_hand_pending():
    bare: list[float] = []
    found, _asked = watch(
        {
            STANDINGS: [
                {"results_version": 4, "is_current": False},
                {"results_version": 5, "is_current": True},
            ],
            STATS: [
                {"results_version": 4, "stats": {"games": 2}},
                {"results_version": 5, "stats": {"games": 3}},
            ],
        },
        seen=4,
        bare=bare,
    )
    assert found is not None and found[1] == 5
    assert len(bare) == 1 and bare[0] <= found[0]
