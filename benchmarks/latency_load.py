"""The captains and the watchers of ``bench_standings_latency_loaded.py``, run as a process of
its own so that they do not share an interpreter (or a GIL) with what they measure.

Reads a JSON plan on stdin and writes a JSON result on stdout.

*Captains*: each one posts the hands of its games one after another, as fast as it is answered
(``think`` seconds between hands, default 0: the hardest a night can be), through
``POST /api/v1/games/<id>/hands/`` with the game's ``X-Captain-Token``, a fresh
``Idempotency-Key`` and the hand's ``number``, as the captain page's script does. Hand ``n`` is
made by side A when ``n`` is odd, else by side B, 3 tricks: a game to 10 ends at its 19th hand,
10-9. A captain's games seat four players no other captain seats, so each of them gains exactly
one game in the standings per game its captain finishes.

*Samples*: every hand answered as ending its game (``"status": "finished"`` in the 201's game) is
a sample, whoever's it is (which hands are sampled is fixed by the games' length, not by the
pipeline's timing). A watcher starts at the 2xx and polls the season's public standings,
``GET /api/v1/seasons/<id>/standings/?limit=1`` (a few hundred bytes: the snapshot's
``results_version`` and ``is_current``), every ``poll`` seconds. Each time it sees a version it
has not seen, it asks the public stats of one of the game's players,
``GET /api/v1/seasons/<id>/players/<player>/stats/`` (the player's line, stored with the snapshot
in one transaction), whether that player's games include this one. The sample's latency is from
the 2xx to the answer of the standings poll that first showed that version; if the stats answer
came from a newer snapshot than the poll had shown (a fold committed in between), the stats
answer's time is taken instead (never early).

*Floor*: one client on a small season of its own, one sample at a time, meanwhile: it waits
until that season's standings say ``is_current``, posts the one hand of a one-hand game, then
polls the same endpoint. ``bare`` is the time from the 2xx to the first poll that shows any sign
of the hand (``is_current`` false, which the pending change shows at once, with no worker; or a
newer version): what the same poll, through the same loaded server, takes to see a change that
needs nothing done. ``pipeline`` is the time until its standings include the game as above: the
same POST, queue, countdown, worker and poll, with almost nothing to fold.

Plan: ``{"port", "seconds", "poll", "timeout", "think", "season", "captains": [{"player",
"games_before", "games": [{"id", "token"}, ...]}, ...], "floor": {"season", "player",
"games_before", "games": [{"id", "token"}, ...]} or null}``.
The captains post for ``seconds``, when sampling stops, and go on posting until every sample
taken is seen (or its ``timeout`` is up), so that the last samples are not watched on a quiet
server.

Result: ``{"elapsed", "hands", "hands_sampled" (answered before the deadline), "statuses",
"failures", "post_latencies", "samples": [{"latency", "version", "polls", "late",
"posted_at"}], "unseen", "floor": [{"bare", "pipeline"}], "floor_unseen", "poll_latencies"}``.
"""

import asyncio
import json
import random
import sys
import time
import uuid

from benchmarks.http_load import read_response

FAILURES_KEPT = 5


class Connection:
    """One HTTP/1.1 connection, opened again whenever the server closes it (a sync gunicorn
    worker closes after each answer; the reconnection counts in that request's time)."""

    def __init__(self, port: int) -> None:
        self.port = port
        self.reader = self.writer = None

    async def send(self, method: str, path: str, headers: dict, body: bytes = b""):
        head = f"{method} {path} HTTP/1.1\r\nHost: 127.0.0.1\r\n"
        head += "".join(f"{name}: {value}\r\n" for name, value in headers.items())
        if body:
            head += f"Content-Length: {len(body)}\r\n"
        request = (head + "\r\n").encode() + body
        if self.writer is None:
            self.reader, self.writer = await asyncio.open_connection("127.0.0.1", self.port)
        self.writer.write(request)
        status, keep_alive, answer = await read_response(self.reader)
        if not keep_alive:
            self.close()
        return status, answer

    def close(self) -> None:
        if self.writer is not None:
            self.writer.close()
        self.reader = self.writer = None


def hand_body(number: int) -> bytes:
    makers = "A" if number % 2 else "B"
    return json.dumps({"makers": makers, "tricks_won": 3, "number": number}).encode()


async def post_hand(connection: Connection, game: dict, number: int):
    key = uuid.uuid4().hex
    headers = {
        "Content-Type": "application/json",
        "X-Captain-Token": game["token"],
        "Idempotency-Key": key,
    }
    return await connection.send(
        "POST", f"/api/v1/games/{game['id']}/hands/", headers, hand_body(number)
    )


class Watch:
    """Polls a season's public standings until one player's line counts ``expected`` games."""

    def __init__(self, plan: dict, result: dict, season: int, player: int, expected: int):
        self.plan, self.result = plan, result
        self.standings = f"/api/v1/seasons/{season}/standings/?limit=1"
        self.stats = f"/api/v1/seasons/{season}/players/{player}/stats/"
        self.expected = expected
        self.connection = Connection(plan["port"])
        self.polls = 0

    async def get(self, path: str) -> tuple[float, int, dict]:
        started = time.perf_counter()
        status, body = await self.connection.send("GET", path, {"Accept": "application/json"})
        answered = time.perf_counter()
        if path == self.standings:
            self.result["poll_latencies"].append(answered - started)
        return answered, status, json.loads(body or b"null")

    async def until_counted(self, posted: float, seen: int | None, bare: list | None = None):
        """``(latency, version, late)``, or ``None`` past the timeout. ``seen``: the version
        shown before the hand (the floor's), so that a newer one is a sign of it; ``bare``,
        when given, gets the seconds to the first sign of the hand."""
        checked: set[int] = set()
        deadline = posted + self.plan["timeout"]
        try:
            while True:
                answered, status, body = await self.get(self.standings)
                self.polls += 1
                if status == 200:
                    version = body["results_version"]
                    sign = not body["is_current"] or (seen is not None and version > seen)
                    if bare is not None and not bare and sign:
                        bare.append(answered - posted)
                    if version not in checked:
                        checked.add(version)
                        when, status, stats = await self.get(self.stats)
                        line = stats.get("stats") if status == 200 else None
                        if line and line["games"] >= self.expected:
                            late = stats["results_version"] > version
                            if bare is not None and not bare:
                                bare.append(answered - posted)
                            return (when if late else answered) - posted, version, late
                if answered > deadline:
                    return None
                await asyncio.sleep(self.plan["poll"])
        finally:
            self.connection.close()


async def watch_sample(plan, result, player, expected, posted, posted_at) -> None:
    watch = Watch(plan, result, plan["season"], player, expected)
    found = await watch.until_counted(posted, None)
    if found is None:
        result["unseen"] += 1
        return
    latency, version, late = found
    result["samples"].append(
        {
            "latency": latency,
            "version": version,
            "polls": watch.polls,
            "late": late,
            "posted_at": posted_at,  # the wall clock's, to match the worker's probe
        }
    )


async def captain(plan, result, captain_plan, deadline, stop, watchers) -> None:
    """Posts until ``stop``; takes samples until ``deadline`` (the load goes on while the last
    samples are watched, so that none of them is seen on a quiet server)."""
    connection = Connection(plan["port"])
    finished = 0
    try:
        for game in captain_plan["games"]:
            number = 1
            while True:
                if stop.is_set():
                    return
                started = time.perf_counter()
                status, answer = await post_hand(connection, game, number)
                answered, answered_at = time.perf_counter(), time.time()
                result["post_latencies"].append(answered - started)
                result["statuses"][str(status)] = result["statuses"].get(str(status), 0) + 1
                if status != 201:
                    if len(result["failures"]) < FAILURES_KEPT:
                        result["failures"].append(
                            {"status": status, "game": game["id"], "body": answer[:300].decode()}
                        )
                    break  # this game takes no more: the next one
                result["hands"] += 1
                if answered < deadline:
                    result["hands_sampled"] += 1
                if json.loads(answer)["game"]["status"] == "finished":
                    finished += 1
                    expected = captain_plan["games_before"] + finished
                    if answered >= deadline:
                        break
                    watchers.append(
                        asyncio.create_task(
                            watch_sample(
                                plan,
                                result,
                                captain_plan["player"],
                                expected,
                                answered,
                                answered_at,
                            )
                        )
                    )
                    break
                number += 1
                if plan["think"]:
                    await asyncio.sleep(plan["think"])
    finally:
        connection.close()


async def floor(plan, result, deadline) -> None:
    floor_plan = plan["floor"]
    chance = random.Random(11)
    connection = Connection(plan["port"])
    for index, game in enumerate(floor_plan["games"]):
        watch = Watch(plan, result, floor_plan["season"], floor_plan["player"], 0)
        while True:  # the floor season current before each sample
            _, status, body = await watch.get(watch.standings)
            if (status == 200 and body["is_current"]) or time.perf_counter() >= deadline:
                break  # (the bench plays the floor season's first game: it has standings)
            await asyncio.sleep(plan["poll"])
        if time.perf_counter() >= deadline:
            break
        await asyncio.sleep(chance.uniform(0.0, 0.5))  # not in step with anything
        status, answer = await post_hand(connection, game, 1)
        posted = time.perf_counter()
        if status != 201 or json.loads(answer)["game"]["status"] != "finished":
            result["failures"].append({"status": status, "game": game["id"], "floor": True})
            break
        watch.expected = floor_plan["games_before"] + index + 1
        bare: list[float] = []
        found = await watch.until_counted(posted, body["results_version"], bare)
        if found is None:
            result["floor_unseen"] += 1
            continue
        result["floor"].append({"bare": bare[0], "pipeline": found[0]})
    connection.close()


async def run(plan: dict) -> dict:
    result = {
        "hands": 0,
        "hands_sampled": 0,
        "statuses": {},
        "failures": [],
        "post_latencies": [],
        "samples": [],
        "unseen": 0,
        "floor": [],
        "floor_unseen": 0,
        "poll_latencies": [],
    }
    started = time.perf_counter()
    deadline = started + plan["seconds"]
    stop = asyncio.Event()
    watchers: list[asyncio.Task] = []
    clients = [
        asyncio.create_task(captain(plan, result, c, deadline, stop, watchers))
        for c in plan["captains"]
    ]
    if plan.get("floor"):
        clients.append(asyncio.create_task(floor(plan, result, deadline)))
    await asyncio.sleep(plan["seconds"])
    taken = list(watchers)  # no sample is taken after the deadline
    await asyncio.gather(*taken, *clients[len(plan["captains"]) :])
    stop.set()  # the captains posted until every sample was seen
    await asyncio.gather(*clients)
    elapsed = time.perf_counter() - started
    for name in ("post_latencies", "poll_latencies"):
        result[name].sort()
    return {"elapsed": elapsed, **result}


if __name__ == "__main__":
    print(json.dumps(asyncio.run(run(json.load(sys.stdin)))))
